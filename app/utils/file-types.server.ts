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
  if (buffer.subarray(0, 5).toString('latin1') === '%PDF-') return { kind: 'pdf', extension: 'pdf', contentType: 'application/pdf' }
  if (buffer.subarray(0, 8).equals(OLE_SIGNATURE) && extension === 'doc') {
    return { kind: 'doc', extension: 'doc', contentType: 'application/msword' }
  }
  // A .docx is a zip whose parts include word/document.xml.
  if (buffer.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004' && buffer.includes('word/')) {
    return {
      kind: 'docx',
      extension: 'docx',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    }
  }
  if (extension === 'txt' && isPlainText(buffer)) return { kind: 'txt', extension: 'txt', contentType: 'text/plain; charset=utf-8' }
  return null
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
