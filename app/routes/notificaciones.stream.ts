import { getCurrentUser } from '~/utils/permissions.server'
import { getAuth } from '~/utils/auth.server'
import { subscribe } from '~/utils/realtime.server'
import type { Route } from './+types/notificaciones.stream'

/** Spec 000 §9: heartbeat every 25 s. Each heartbeat also re-checks the session. */
const HEARTBEAT_MS = 25_000

/**
 * Server-sent events for the signed-in member: only their own notifications, fed by
 * LISTEN/NOTIFY so an event committed by any app process arrives. A signed-out or
 * revoked session ends the stream.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getCurrentUser(request)
  if (!user) return new Response('No autenticado', { status: 401 })
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
        } catch {}
      }
      const unsubscribe = subscribe(
        user.id,
        (event) => send(`event: notification\ndata: ${JSON.stringify({ id: event.notificationId })}\n\n`),
        close,
      )
      const heartbeat = setInterval(async () => {
        send(': ping\n\n')
        const session = await getAuth().api.getSession({ headers: request.headers }).catch(() => null)
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
