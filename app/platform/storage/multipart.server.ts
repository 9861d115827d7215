import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import busboy from 'busboy'

export interface UploadedFile {
  field: string
  buffer: Buffer
  filename: string
  declaredType: string
}

export interface FileLimits {
  /** The only fields that may carry files; parts under other names are skipped. */
  field: string | readonly string[]
  maxFiles: number
  maxFileBytes: number
  /** All files together. */
  maxTotalBytes: number
}

export type MultipartResult =
  | { ok: true; fields: Array<[string, string]>; files: UploadedFile[] }
  | { ok: false; reason: 'too-large' | 'file-too-large' | 'too-many' | 'malformed' }

const MAX_FIELDS = 40
const MAX_FIELD_BYTES = 16 * 1024
/** Past the limit the rest of the body is read and dropped, so the client gets the answer
 * instead of a reset connection; a body that keeps going beyond this is cut off. */
const MAX_DRAIN_BYTES = 64 * 1024 * 1024

/**
 * Reads a multipart form, stopping as soon as a limit is passed: limits hold while
 * streaming, so a huge upload never fills memory. Every stream involved (the request,
 * busboy, each file part) has an error path: a body cut short or malformed ends as
 * `malformed`, never as an exception that could stop the process.
 */
export function readMultipart(request: Request, files: FileLimits | null): Promise<MultipartResult> {
  const contentType = request.headers.get('content-type') ?? ''
  if (!/^multipart\/form-data/i.test(contentType) || !request.body) return Promise.resolve({ ok: false, reason: 'malformed' })
  const limits = files ?? { field: '', maxFiles: 0, maxFileBytes: 0, maxTotalBytes: 0 }
  const envelope = 64 * 1024 + MAX_FIELDS * MAX_FIELD_BYTES
  const declaredLength = Number(request.headers.get('content-length') ?? 0)
  if (declaredLength > limits.maxTotalBytes + envelope) return Promise.resolve({ ok: false, reason: 'too-large' })

  return new Promise((resolve) => {
    const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>)
    let settled = false
    let parser: busboy.Busboy
    const finish = (result: MultipartResult) => {
      if (settled) return
      settled = true
      resolve(result)
      if (result.ok) return
      // Keep reading (and dropping) what the client still sends, up to a bound.
      source.unpipe()
      parser?.removeAllListeners('file')
      let drained = 0
      source.on('data', (chunk: Buffer) => {
        drained += chunk.length
        if (drained > MAX_DRAIN_BYTES) source.destroy()
      })
      source.resume()
    }
    source.on('error', () => finish({ ok: false, reason: 'malformed' }))
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        // Browsers send file names as UTF-8 bytes; busboy would read them as Latin-1 ('Ã³' for 'ó').
        defParamCharset: 'utf8',
        limits: {
          files: limits.maxFiles,
          fileSize: limits.maxFileBytes,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: limits.maxFiles + MAX_FIELDS,
        },
      })
    } catch {
      finish({ ok: false, reason: 'malformed' })
      return
    }
    const fields: Array<[string, string]> = []
    const received: UploadedFile[] = []
    const pending: Array<Promise<void>> = []
    let totalBytes = 0
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) finish({ ok: false, reason: 'too-large' })
      else fields.push([name, value])
    })
    parser.on('file', (name, stream, info) => {
      stream.on('error', () => finish({ ok: false, reason: 'malformed' }))
      if (!([] as string[]).concat(limits.field).includes(name) || settled) {
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
          stream.on('limit', () => finish({ ok: false, reason: 'file-too-large' }))
          stream.on('close', () => {
            const buffer = Buffer.concat(chunks)
            // An empty file input still sends a part with no name and no bytes.
            if (buffer.length > 0) received.push({ field: name, buffer, filename: info.filename ?? '', declaredType: info.mimeType ?? '' })
            done()
          })
        }),
      )
    })
    parser.on('filesLimit', () => finish({ ok: false, reason: 'too-many' }))
    parser.on('partsLimit', () => finish({ ok: false, reason: 'too-many' }))
    parser.on('fieldsLimit', () => finish({ ok: false, reason: 'too-many' }))
    parser.on('error', () => finish({ ok: false, reason: 'malformed' }))
    parser.on('close', () => {
      void Promise.all(pending).then(() => finish({ ok: true, fields, files: received }))
    })
    source.pipe(parser)
  })
}
