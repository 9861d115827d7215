import { isRouteErrorResponse, Link, useRevalidator, useRouteError } from 'react-router'
import { Button } from './button'
import { Card, CardContent, CardDescription, CardHeader } from './card'

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

/** A refusal's (or an unavailability's) fixed Spanish message, if the error is one. */
function failureMessage(data: unknown) {
  const message = (data as { ok?: unknown; message?: { title?: unknown; description?: unknown } } | null)?.message
  if ((data as { ok?: unknown } | null)?.ok !== false || typeof message?.title !== 'string') return null
  return { title: message.title, description: typeof message.description === 'string' ? message.description : undefined }
}

/**
 * One boundary for every route: the 404 page, a refusal with its message, a passing failure
 * (503: the database away) with a way to try again, or a generic failure in Spanish.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError()
  const revalidator = useRevalidator()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  const failure = isRouteErrorResponse(error) ? failureMessage(error.data) : null
  if (!isRouteErrorResponse(error)) console.error(error)
  const passing = isRouteErrorResponse(error) && error.status === 503
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">{passing && failure ? failure.title : failure ? 'No se puede continuar' : 'Algo ha fallado'}</h1>
      <p className="mt-4 text-muted-foreground">
        {passing ? failure?.description : (failure?.title ?? 'Error inesperado. Vuelve a intentarlo en unos segundos.')}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {passing ? (
          <Button type="button" onClick={() => void revalidator.revalidate()} disabled={revalidator.state !== 'idle'}>
            Reintentar
          </Button>
        ) : null}
        <Button asChild variant={passing ? 'outline' : 'default'}>
          <Link to="/">Volver al inicio</Link>
        </Button>
      </div>
    </section>
  )
}

/**
 * The boundary of a small public page opened from a link in an e-mail (an application's status, an
 * unsubscribe): a refusal's message as the page's heading, what to do about it (`describe`, by
 * status) and one way on; anything else is the general boundary.
 */
export function SmallPageErrorBoundary({ to, label, describe }: { to: string; label: string; describe?: (status: number) => string }) {
  const error = useRouteError()
  const failure = isRouteErrorResponse(error) ? failureMessage(error.data) : null
  if (!failure || !isRouteErrorResponse(error)) return <GeneralErrorBoundary />
  return (
    <div className="mx-auto grid w-full max-w-xl gap-6 px-4 py-10">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-semibold leading-tight">{failure.title}</h1>
          {describe ? <CardDescription>{describe(error.status)}</CardDescription> : null}
        </CardHeader>
        <CardContent>
          <Button asChild>
            <Link to={to}>{label}</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  )
}

/**
 * The boundary of a part of a page (a community tab, the video page): the frame around it stays
 * (top bar, tabs, stats), and in its place the refusal's message, or `failed` (the spec's words
 * for this part) when it could not be loaded, with 'Reintentar' to load it again.
 */
export function PartErrorBoundary({ failed }: { failed: string }) {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404 && !failureMessage(error.data)) return <NotFound />
  if (!isRouteErrorResponse(error)) console.error(error)
  const failure = isRouteErrorResponse(error) ? failureMessage(error.data) : null
  if (isRouteErrorResponse(error) && error.status < 500 && failure) {
    return (
      <section role="alert" className="grid justify-items-start gap-3 rounded-xl border bg-card p-6">
        <h2 className="text-lg font-semibold">{failure.title}</h2>
      </section>
    )
  }
  return <PartUnavailable failed={failed} description={failure?.description} />
}

/**
 * A part of a page that could not be loaded, in its place: what failed (the spec's words where it
 * gives them) and 'Reintentar', which loads the page's data again without leaving it.
 */
export function PartUnavailable({ failed, description, inCard }: { failed: string; description?: string; inCard?: boolean }) {
  const revalidator = useRevalidator()
  // Inside a card the part is one of its sections (h3), without a card of its own.
  const Heading = inCard ? 'h3' : 'h2'
  return (
    <section
      role="alert"
      className={
        inCard
          ? 'grid justify-items-start gap-2 rounded-md border border-dashed p-4'
          : 'grid justify-items-start gap-3 rounded-xl border bg-card p-6'
      }
    >
      <Heading className={inCard ? 'font-semibold' : 'text-lg font-semibold'}>{failed}</Heading>
      <p className="text-sm text-muted-foreground">{description ?? 'Vuelve a intentarlo en unos segundos.'}</p>
      <Button type="button" variant="outline" onClick={() => void revalidator.revalidate()} disabled={revalidator.state !== 'idle'}>
        Reintentar
      </Button>
    </section>
  )
}
