import { sniffImageType } from './image.server'

export type AttachmentKind = 'image' | 'pdf' | 'doc' | 'docx' | 'txt'

export interface AttachmentType {
  kind: AttachmentKind
  extension: string
  contentType: string
}

const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])

/**
 * Decides what an attachment is from its bytes (spec: images, pdf, doc, docx, txt).
 * The name only breaks ties the bytes cannot (a .doc and other OLE files look alike).
 */
export function sniffAttachment(buffer: Buffer, filename: string): AttachmentType | null {
  const extension = filename.toLowerCase().split('.').pop() ?? ''
  const image = sniffImageType(buffer)
  if (image) return { kind: 'image', extension: 'webp', contentType: 'image/webp' }
  if (isPdf(buffer)) return { kind: 'pdf', extension: 'pdf', contentType: 'application/pdf' }
  if (buffer.subarray(0, 8).equals(OLE_SIGNATURE) && extension === 'doc') {
    return { kind: 'doc', extension: 'doc', contentType: 'application/msword' }
  }
  // A .docx is a zip whose directory lists the Office parts, not any zip that mentions them.
  if (buffer.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004' && isWordDocument(zipEntryNames(buffer))) {
    return {
      kind: 'docx',
      extension: 'docx',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    }
  }
  if (extension === 'txt' && isPlainText(buffer)) return { kind: 'txt', extension: 'txt', contentType: 'text/plain; charset=utf-8' }
  return null
}

export function isPdf(buffer: Buffer) {
  return buffer.subarray(0, 5).toString('latin1') === '%PDF-'
}

/**
 * The name a stored file is downloaded under, from the member's own (spec 001 §5: letters,
 * digits, dot and hyphen only; accents dropped, anything else a hyphen), with our extension.
 */
export function downloadName(original: string, extension: string, fallback = 'archivo') {
  const base = original
    .replace(/\.[^.]*$/, '')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^A-Za-z0-9.-]+/g, '-')
    .replace(/^[.-]+|-+$/g, '')
    .slice(0, 100)
  return `${base || fallback}.${extension}`
}

function isPlainText(buffer: Buffer) {
  if (buffer.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buffer)
    return true
  } catch {
    return false
  }
}

/** The file names of a zip archive, read from its central directory; null when it is not a sound zip. */
export function zipEntryNames(buffer: Buffer): string[] | null {
  // The end-of-central-directory record sits in the last 22 bytes plus a comment of up to 64 KiB.
  const EOCD = 0x06054b50
  let end = -1
  for (let offset = buffer.length - 22; offset >= Math.max(0, buffer.length - 22 - 0xffff); offset--) {
    if (buffer.readUInt32LE(offset) === EOCD) {
      end = offset
      break
    }
  }
  if (end < 0) return null
  const count = buffer.readUInt16LE(end + 10)
  let offset = buffer.readUInt32LE(end + 16)
  const names: string[] = []
  for (let index = 0; index < count; index++) {
    if (offset + 46 > buffer.length || buffer.readUInt32LE(offset) !== 0x02014b50) return null
    const nameLength = buffer.readUInt16LE(offset + 28)
    const extraLength = buffer.readUInt16LE(offset + 30)
    const commentLength = buffer.readUInt16LE(offset + 32)
    if (offset + 46 + nameLength > buffer.length) return null
    names.push(buffer.subarray(offset + 46, offset + 46 + nameLength).toString('utf8'))
    offset += 46 + nameLength + extraLength + commentLength
  }
  return names
}

function isWordDocument(names: string[] | null) {
  return Boolean(names?.includes('[Content_Types].xml') && names.includes('word/document.xml'))
}
