import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import type express from 'express'
import { noteRoutePattern } from '~/platform/http/request-context.server'
import { unavailableIfDatabaseAway } from '~/platform/http/responses.server'
import { logger } from '~/platform/logger.server'

/**
 * A route Express answers with a Fetch API handler, before React Router: the bodies its Node
 * adapter would hold whole (docs/ARCHITECTURE.md, Requests). The one way these routes fail:
 * a thrown Response (a guard's answer; the database away, 503) is the answer; anything else is
 * logged once with the request id and is a 500 before the first byte, or, once the 200 and part of
 * the body are out, a cut connection: the body never gets its last chunk, so the browser and curl
 * report a failed download instead of keeping a shorter file that looks complete. A client that
 * went away (a closed tab, an upload dropped mid-chunk that resumes later) is not a failure.
 */
export function fetchRoute(
  handle: (request: Request, params: express.Request['params']) => Promise<Response>,
  what: string,
): express.RequestHandler {
  return (req, res) => {
    // Express's pattern ('/uploads/videos/:uploadId'), as React Router's for its routes.
    if (req.route?.path) noteRoutePattern(String(req.route.path))
    handle(fetchRequestOf(req), req.params)
      .catch(unavailableIfDatabaseAway)
      .catch((thrown: unknown) => {
        if (thrown instanceof Response) return thrown
        throw thrown
      })
      .then((response) => sendFetchResponse(res, response))
      .catch((error: unknown) => {
        if (req.destroyed || (error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE')
          return logger.debug({ err: error }, `${what}: client gone`)
        logger.error({ err: error }, `${what} failed`)
        if (res.headersSent) res.destroy()
        else res.status(500).type('text/plain; charset=utf-8').send('Error inesperado. Vuelve a intentarlo en unos segundos.')
      })
  }
}

/** The Fetch API request our handlers take, streaming the body (a video chunk is never buffered here). */
export function fetchRequestOf(req: express.Request) {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    for (const item of [value ?? []].flat()) headers.append(name, item)
  }
  const url = `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit)
}

export async function sendFetchResponse(res: express.Response, response: Response) {
  res.status(response.status)
  for (const [name, value] of response.headers) res.append(name, value)
  if (!response.body) return void res.end()
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res)
}
