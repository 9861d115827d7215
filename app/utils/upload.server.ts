import { Readable } from 'node:stream'
import busboy from 'busboy'

export interface UploadedFile {
  buffer: Buffer
  filename: string
  declaredType: string
}

export type MultipartResult =
  | { ok: true; fields: Record<string, string>; files: UploadedFile[] }
  | { ok: false; reason: 'too-large' | 'too-many' | 'malformed' }

export interface MultipartLimits {
  fileField: string
  maxFiles: number
  maxFileBytes: number
  /** All files together. */
  maxTotalBytes: number
  maxFieldBytes?: number
}

/**
 * Reads a multipart form, stopping as soon as a limit is passed: limits hold while
 * streaming, so a huge upload never fills memory or disk.
 */
export async function readMultipart(request: Request, limits: MultipartLimits): Promise<MultipartResult> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!contentType.startsWith('multipart/form-data') || !request.body) return { ok: false, reason: 'malformed' }
  const maxFieldBytes = limits.maxFieldBytes ?? 16 * 1024
  const envelope = 64 * 1024 + 20 * maxFieldBytes
  const declaredLength = Number(request.headers.get('content-length') ?? 0)
  if (declaredLength > limits.maxTotalBytes + envelope) return { ok: false, reason: 'too-large' }

  return new Promise((resolve) => {
    let settled = false
    const source = Readable.fromWeb(request.body as import('node:stream/web').ReadableStream)
    const finish = (result: MultipartResult) => {
      if (settled) return
      settled = true
      if (!result.ok) source.destroy()
      resolve(result)
    }
    let parser: busboy.Busboy
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { files: limits.maxFiles, fileSize: limits.maxFileBytes, fields: 20, fieldSize: maxFieldBytes, parts: limits.maxFiles + 20 },
      })
    } catch {
      return finish({ ok: false, reason: 'malformed' })
    }
    const fields: Record<string, string> = {}
    const files: UploadedFile[] = []
    const pending: Promise<void>[] = []
    let totalBytes = 0
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return finish({ ok: false, reason: 'too-large' })
      fields[name] = value
    })
    parser.on('file', (name, stream, info) => {
      if (name !== limits.fileField) {
        stream.resume()
        return
      }
      const chunks: Buffer[] = []
      pending.push(
        new Promise((done) => {
          stream.on('data', (chunk: Buffer) => {
            totalBytes += chunk.length
            if (totalBytes > limits.maxTotalBytes) finish({ ok: false, reason: 'too-large' })
            else chunks.push(chunk)
          })
          stream.on('limit', () => finish({ ok: false, reason: 'too-large' }))
          stream.on('end', () => {
            const buffer = Buffer.concat(chunks)
            // An empty file input still sends a part with no name and no bytes.
            if (buffer.length > 0 || info.filename) files.push({ buffer, filename: info.filename ?? '', declaredType: info.mimeType ?? '' })
            done()
          })
        }),
      )
    })
    parser.on('filesLimit', () => finish({ ok: false, reason: 'too-many' }))
    parser.on('error', () => finish({ ok: false, reason: 'malformed' }))
    parser.on('close', () => {
      void Promise.all(pending).then(() => finish({ ok: true, fields, files: files.filter((file) => file.buffer.length > 0) }))
    })
    source.on('error', () => finish({ ok: false, reason: 'malformed' }))
    source.pipe(parser)
  })
}

export type UploadResult =
  | ({ ok: true; fields: Record<string, string> } & UploadedFile)
  | { ok: false; reason: 'too-large' | 'missing' | 'malformed' }

/** One file from a multipart request (the avatar form). */
export async function readSingleFile(request: Request, { field, maxBytes }: { field: string; maxBytes: number }): Promise<UploadResult> {
  const result = await readMultipart(request, { fileField: field, maxFiles: 1, maxFileBytes: maxBytes, maxTotalBytes: maxBytes })
  if (!result.ok) return { ok: false, reason: result.reason === 'too-many' ? 'malformed' : result.reason }
  const [file] = result.files
  if (!file) return { ok: false, reason: 'missing' }
  return { ok: true, fields: result.fields, ...file }
}
