import { renderToStaticMarkup } from 'react-dom/server'
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { refuse } from '~/platform/http/responses.server'
import * as statusRoute from '~/features/admission/status.route'
import * as unsubscribeRoute from '~/features/notifications/unsubscribe.route'
import { ADMISSION_MESSAGES } from '~/features/admission/limits'
import { SmallPageErrorBoundary } from './error-boundary'

/** What a route's boundary shows for what its loader threw, rendered as the server renders it. */
async function boundaryOf(ErrorBoundary: () => React.ReactNode, thrown: () => never) {
  const handler = createStaticHandler([{ path: '/', loader: thrown, Component: () => null, ErrorBoundary }])
  const context = await handler.query(new Request('http://localhost/'))
  if (context instanceof Response) throw new Error('a redirect')
  return renderToStaticMarkup(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  )
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()

describe("a small public page's boundary", () => {
  test("shows the refusal as the page's heading, what to do, and one way on", async () => {
    const html = await boundaryOf(
      () => <SmallPageErrorBoundary to="/perfil" label="Ir a mi perfil" describe={(status) => (status === 410 ? 'Caducó.' : 'No vale.')} />,
      () => refuse(410, 'Este enlace ha caducado'),
    )
    expect(html).toMatch(/<h1[^>]*>Este enlace ha caducado<\/h1>/)
    expect(text(html)).toContain('Caducó.')
    expect(html).toMatch(/<a[^>]*href="\/perfil"[^>]*>Ir a mi perfil<\/a>/)
  })

  test('anything but a refusal is the general boundary', async () => {
    const html = await boundaryOf(
      () => <SmallPageErrorBoundary to="/perfil" label="Ir a mi perfil" />,
      () => {
        throw new Error('bug')
      },
    )
    expect(html).toMatch(/<h1[^>]*>Algo ha fallado<\/h1>/)
    expect(html).not.toContain('Ir a mi perfil')
  })
})

describe('the status and unsubscribe pages, opened from a bad or old link', () => {
  test('the status page names the link and leads to the form', async () => {
    const html = await boundaryOf(statusRoute.ErrorBoundary, () => refuse(410, ADMISSION_MESSAGES.expiredLink))
    expect(html).toMatch(new RegExp(`<h1[^>]*>${ADMISSION_MESSAGES.expiredLink}</h1>`))
    expect(html).toMatch(/<a[^>]*href="\/admision"[^>]*>Ir al formulario de admisión<\/a>/)
  })

  test('the unsubscribe page says why for an expired link and for a wrong one, and leads to the preferences', async () => {
    const expired = await boundaryOf(unsubscribeRoute.ErrorBoundary, () => refuse(410, 'Este enlace ha caducado'))
    expect(expired).toMatch(/<h1[^>]*>Este enlace ha caducado<\/h1>/)
    expect(text(expired)).toContain('Por seguridad, los enlaces para darse de baja caducan.')
    expect(expired).toMatch(/<a[^>]*href="\/perfil#notificaciones"[^>]*>Ir a mis preferencias<\/a>/)
    const wrong = await boundaryOf(unsubscribeRoute.ErrorBoundary, () => refuse(400, 'Enlace no válido'))
    expect(text(wrong)).toContain('El enlace está incompleto o no es correcto.')
  })
})
