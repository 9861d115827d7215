import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import { renderToPipeableStream } from 'react-dom/server'
import { type AppLoadContext, type EntryContext, type ServerInstrumentation, ServerRouter } from 'react-router'
import { deferScriptsUntilPainted } from '~/platform/document/deferred-boot.server'
import { NonceProvider } from '~/platform/document/nonce'
import { isDatabaseUnavailable } from '~/platform/db/availability.server'
import { RETRY_AFTER_SECONDS } from '~/platform/http/responses.server'
import { noteRoutePattern } from '~/platform/http/request-context.server'
import { logger } from '~/platform/logger.server'

export const streamTimeout = 5_000

/**
 * The matched route's pattern ('/usuario/:userId', never the URL), for the HTTP metrics' label: React
 * Router gives every loader and action of a request the pattern of the whole match.
 */
export const instrumentations: ServerInstrumentation[] = [
  {
    route(route) {
      const note = async (handler: () => Promise<unknown>, { pattern }: { pattern: string }) => {
        noteRoutePattern(pattern)
        await handler()
      }
      route.instrument({ loader: note, action: note })
    },
  },
]

// Requests whose loaders failed because the database was away: a 503 with Retry-After, not a 500.
const databaseAway = new WeakSet<Request>()

/** Errors of loaders and rendering (never refusals or redirects): logged with the request id. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return
  if (isDatabaseUnavailable(error)) {
    databaseAway.add(request)
    logger.warn({ err: error, url: request.url }, 'Page failed: the database is away')
  } else {
    logger.error({ err: error, url: request.url }, 'Page failed')
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce
  if (databaseAway.has(request)) responseStatusCode = 503
  // A page that answers 503 (its loader's `unavailable()`, or the database lost under it) says
  // when to come back; React Router does not copy a thrown answer's headers to the document.
  if (responseStatusCode === 503) responseHeaders.set('Retry-After', String(RETRY_AFTER_SECONDS))
  return new Promise((resolve, reject) => {
    let shellRendered = false
    const userAgent = request.headers.get('user-agent')
    // Crawlers and no-JS clients get the whole page at once.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // Every part in place in the HTML: past its first 12.8 KB React would move finished parts
        // (see ui/lazy-part) out of line, shown by a script that a member without JavaScript never runs.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true
          const body = new PassThrough()
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
          if (import.meta.env.DEV) {
            resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
          } else {
            // Our pages stream nothing late (no deferred data), so the whole document is at hand
            // once it has rendered: its scripts are set to start after the first paint.
            const chunks: Buffer[] = []
            body.on('data', (chunk: Buffer) => chunks.push(chunk))
            body.on('error', reject)
            body.on('end', () => {
              const html = deferScriptsUntilPainted(Buffer.concat(chunks), nonce)
              resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }))
            })
          }
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, streamTimeout + 1000)
  })
}
