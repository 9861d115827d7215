import { verifyUploadSignature } from './signed-url.server'
import { type ByteRange, contentTypeOf, getStorage, isValidKey, parseRange } from './storage.server'
import type { Route } from './+types/uploads.route'

const notFound = () => new Response('No encontrado', { status: 404 })

function contentDisposition(type: 'inline' | 'attachment', fileName: string) {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/**
 * Serves stored files with headers that keep them inert: the type comes from the
 * server-chosen extension (never from the upload), `nosniff`, and a sandboxing CSP so
 * even a crafted file could run nothing. Avatars are public like the spec's bucket;
 * every other file needs a link signed by the feature that showed it, valid for an hour
 * (spec 001 §7).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const key = params['*'] ?? ''
  const contentType = contentTypeOf(key)
  if (!isValidKey(key) || !contentType) return notFound()

  let disposition: string
  let cacheControl: string
  if (key.startsWith('avatars/')) {
    disposition = contentDisposition('inline', key.slice(key.lastIndexOf('/') + 1))
    // Every upload gets a new name, so a cached copy is never stale.
    cacheControl = 'public, max-age=31536000, immutable'
  } else {
    const fileName = verifyUploadSignature(key, new URL(request.url).searchParams)
    if (!fileName) return notFound()
    const inline = contentType.startsWith('image/') || contentType.startsWith('video/') || contentType.startsWith('text/vtt')
    disposition = contentDisposition(inline ? 'inline' : 'attachment', fileName)
    cacheControl = 'private, max-age=3600'
  }

  const storage = getStorage()
  const rangeHeader = request.headers.get('range')
  let range: ByteRange | undefined
  if (rangeHeader) {
    const size = await storage.size(key)
    if (size === null) return notFound()
    const parsed = parseRange(rangeHeader, size)
    if (!parsed) {
      return new Response(null, { status: 416, headers: { 'Content-Range': `bytes */${size}`, 'X-Content-Type-Options': 'nosniff' } })
    }
    range = parsed
  }
  const file = await storage.get(key, range)
  if (!file) return notFound()
  const headers = new Headers({
    'Content-Type': contentType,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Content-Disposition': disposition,
    'Cache-Control': cacheControl,
    'Cross-Origin-Resource-Policy': 'same-origin',
  })
  headers.set('Accept-Ranges', 'bytes')
  if (range && file.size !== undefined) {
    // Players seek with ranges; each answer streams only its bytes from the disk or S3.
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
    headers.set('Content-Length', String(range.end - range.start + 1))
    return new Response(file.body, { status: 206, headers })
  }
  if (file.size !== undefined) headers.set('Content-Length', String(file.size))
  return new Response(file.body, { headers })
}
