import { requireCapability, requireUser } from '~/platform/auth/guards.server'
import { refuse } from '~/platform/http/responses.server'
import { receiveChunk } from './local-video.server'
import type { Route } from './+types/video-upload.route'

/**
 * The embedded provider's upload address (what Mux's direct upload URL is otherwise): PUT one
 * chunk with Content-Range, or an empty PUT with `bytes *\/total` to learn how far it got. As
 * with Mux (and Google's resumable uploads, whose protocol @mux/upchunk speaks), 308 means "go on
 * from the Range given", 201 means the video is complete.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request)
  requireCapability(user, 'manage-sessions', 'Solo los administradores pueden subir sesiones')
  if (request.method !== 'PUT') refuse(405, 'Método no permitido', { headers: { Allow: 'PUT' } })

  const outcome = await receiveChunk({
    uploadId: params.uploadId,
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
      refuse(outcome.status, outcome.message, {
        detail: { uploadId: params.uploadId, reason: outcome.detail },
        headers: range(outcome.received),
      })
  }
}
