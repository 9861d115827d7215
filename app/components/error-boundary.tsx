import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { Button } from './ui/button'

export function NotFound() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-6xl font-bold text-primary">404</h1>
      <p className="mt-4 text-xl">Oops! Page not found</p>
      <Button asChild className="mt-8">
        <Link to="/">Volver al inicio</Link>
      </Button>
    </section>
  )
}

/** One boundary for every route: the 404 page, a refusal, or a generic failure in Spanish. */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  const forbidden = isRouteErrorResponse(error) && error.status === 403
  if (!isRouteErrorResponse(error)) console.error(error)
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{forbidden ? 'Acceso no permitido' : 'Algo ha fallado'}</h1>
      <p className="mt-4 text-muted-foreground">
        {forbidden
          ? typeof error.data === 'string' && error.data
            ? error.data
            : 'No tienes permiso para ver esta página.'
          : 'Error inesperado. Vuelve a intentarlo en unos segundos.'}
      </p>
      <Button asChild className="mt-8">
        <Link to="/">Volver al inicio</Link>
      </Button>
    </section>
  )
}
