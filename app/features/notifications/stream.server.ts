import { getCurrentUser } from '~/features/account/guards.server'
import { getAuth } from '~/features/account/auth.server'
import { refuse } from '~/platform/http/responses.server'
import { openStreamCount, subscribe } from '~/platform/realtime.server'

/** Spec 000 §9: heartbeat every 25 s. Each heartbeat also re-checks the session. */
const HEARTBEAT_MS = 25_000
/** A member has a few tabs and devices open, not hundreds; one process serves a bounded number. */
export const MAX_STREAMS_PER_USER = 8
export const MAX_STREAMS_TOTAL = 5_000

/**
 * Server-sent events for the signed-in member (`GET /notificaciones/stream`): only their own
 * notifications, fed by LISTEN/NOTIFY so an event committed by any app process arrives. A
 * signed-out or revoked session ends the stream.
 *
 * Served by Express before React Router (server/app.ts, `fetchRoute`, which answers its refusals:
 * signed out, too many streams), as the video chunks are: React Router's Node adapter (7.x) races
 * every chunk it writes against one promise that settles only when the response ends, so a stream
 * open for hours kept every event it ever sent in memory (the soak measured it:
 * remix-run/react-router#15247, fixed only in 8.x, which needs Node 22).
 */
export async function notificationStream(request: Request): Promise<Response> {
  const user = await getCurrentUser(request)
  if (!user) refuse(401, 'Inicia sesión para recibir notificaciones')
  if (openStreamCount(user.id) >= MAX_STREAMS_PER_USER || openStreamCount() >= MAX_STREAMS_TOTAL) {
    refuse(429, 'Demasiadas conexiones abiertas: cierra alguna pestaña y vuelve a intentarlo', {
      headers: { 'Retry-After': '30' },
      detail: { userId: user.id },
    })
  }
  const encoder = new TextEncoder()
  let cleanup = () => {}
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false
      const send = (chunk: string) => {
        if (!closed) controller.enqueue(encoder.encode(chunk))
      }
      const close = () => {
        if (closed) return
        closed = true
        cleanup()
        try {
          controller.close()
        } catch {
          // Already closed by the client going away.
        }
      }
      const unsubscribe = subscribe(
        user.id,
        (event) => {
          if (event.type === 'notification') send(`event: notification\ndata: ${JSON.stringify({ id: event.notificationId })}\n\n`)
          else if (event.type === 'notification-for-everyone') send(`event: notification\ndata: {}\n\n`)
          // A private message (issue 41): the open conversation and the top bar's count follow.
          else if (event.type === 'message')
            send(`event: private-message\ndata: ${JSON.stringify({ conversationId: event.conversationId })}\n\n`)
          else {
            const { postId, likeCount, commentCount } = event
            send(`event: post-stats\ndata: ${JSON.stringify({ postId, likeCount, commentCount })}\n\n`)
          }
        },
        close,
      )
      const heartbeat = setInterval(async () => {
        send(': ping\n\n')
        const session = await getAuth()
          .api.getSession({ headers: request.headers })
          .catch(() => null)
        if (session?.user.id !== user.id) close()
      }, HEARTBEAT_MS)
      cleanup = () => {
        clearInterval(heartbeat)
        unsubscribe()
      }
      request.signal.addEventListener('abort', close)
      send('retry: 1000\n: connected\n\n')
    },
    cancel() {
      cleanup()
    },
  })
  return new Response(stream, {
    headers: {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    },
  })
}
