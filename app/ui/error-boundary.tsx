import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { Button } from './button'

/** Spec 000 §2 gives the original's English text; the site is Spanish (docs/decisions/0018). */
export function NotFound() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-6xl font-bold text-primary">404</h1>
      <p className="mt-4 text-xl">Página no encontrada</p>
      <p className="mt-2 text-muted-foreground">La dirección no existe o ya no está disponible.</p>
      <Button asChild className="mt-8">
        <Link to="/">Volver al inicio</Link>
      </Button>
    </section>
  )
}

/** A refusal's fixed Spanish message (`refuse()` in platform/http), if the error is one. */
function refusalMessage(data: unknown) {
  const message = (data as { ok?: unknown; message?: { title?: unknown } } | null)?.message
  return (data as { ok?: unknown } | null)?.ok === false && typeof message?.title === 'string' ? message.title : null
}

/** One boundary for every route: the 404 page, a refusal with its message, or a generic failure in Spanish. */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  const refusal = isRouteErrorResponse(error) ? refusalMessage(error.data) : null
  if (!isRouteErrorResponse(error)) console.error(error)
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{refusal ? 'No se puede continuar' : 'Algo ha fallado'}</h1>
      <p className="mt-4 text-muted-foreground">{refusal ?? 'Error inesperado. Vuelve a intentarlo en unos segundos.'}</p>
      <Button asChild className="mt-8">
        <Link to="/">Volver al inicio</Link>
      </Button>
    </section>
  )
}
