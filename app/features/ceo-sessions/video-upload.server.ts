import { requireCapability } from '~/platform/auth/guards.server'
import { requireUser } from '~/features/account/guards.server'
import { refuse } from '~/platform/http/responses.server'
import { receiveChunk } from './local-video.server'

/**
 * The embedded provider's upload address (what Mux's direct upload URL is otherwise): PUT one
 * chunk with Content-Range, or an empty PUT with `bytes *\/total` to learn how far it got. As
 * with Mux (and Google's resumable uploads, whose protocol @mux/upchunk speaks), 308 means "go on
 * from the Range given", 201 means the video is complete.
 *
 * Served by Express before React Router (server/app.ts, `fetchRoute`, which answers the guards'
 * and the refusals' thrown answers): React Router takes any 3xx from an
 * action for a redirect and answers 500 to one without a Location, and a Location would make the
 * browser send the chunk again elsewhere.
 */
export async function handleVideoUpload(request: Request, uploadId: string): Promise<Response> {
  const user = await requireUser(request)
  requireCapability(user, 'manage-sessions', 'Solo los administradores pueden subir sesiones')
  const outcome = await receiveChunk({
    uploadId,
    userId: user.id,
    contentRange: request.headers.get('content-range'),
    contentLength: request.headers.get('content-length'),
    body: request.body,
  })
  const range = (received: number | undefined) => (received ? { Range: `bytes=0-${received - 1}` } : undefined)
  switch (outcome.kind) {
    case 'complete':
      return new Response(null, { status: 201, headers: { 'Cache-Control': 'no-store' } })
    case 'incomplete':
      return new Response(null, { status: 308, headers: { 'Cache-Control': 'no-store', ...range(outcome.received) } })
    case 'refused':
      return refuse(outcome.status, outcome.message, {
        detail: { uploadId, reason: outcome.detail },
        headers: range(outcome.received),
      })
  }
}
