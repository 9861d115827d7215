import sharp, { type Sharp } from 'sharp'
import { refuse } from '~/platform/http/responses.server'
import type { Message } from '~/platform/http/result'

// libvips keeps up to 50 MB of recent operations for reuse; each upload is processed once, so
// that cache would only hold memory within the server's ceiling (scripts/memory.js).
sharp.cache(false)

export type ImageType = 'png' | 'jpeg' | 'webp' | 'gif'

/** The type by the file's first bytes, never by its name or the browser's claim. */
export function sniffImageType(buffer: Buffer): ImageType | null {
  if (buffer.length < 12) return null
  if (buffer.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  if (buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) return 'jpeg'
  if (buffer.subarray(0, 4).toString('latin1') === 'RIFF' && buffer.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp'
  const head = buffer.subarray(0, 6).toString('latin1')
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif'
  return null
}

/** Decoding more pixels than this is refused: a small file can claim a gigantic canvas. */
export const MAX_INPUT_PIXELS = 40_000_000

export const AVATAR_SIZE = 400

/** An image the decoder will not take: too many pixels for its size (a pixel bomb), or not decodable. */
export class ImageRejectedError extends Error {
  constructor(readonly reason: 'too-many-pixels' | 'undecodable') {
    super(reason === 'too-many-pixels' ? 'La imagen es demasiado grande (máximo 40 megapíxeles)' : 'La imagen no se pudo leer')
  }
}

async function reencode(input: Buffer, build: (image: Sharp) => Sharp) {
  try {
    return await build(sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false }).rotate()).toBuffer()
  } catch (error) {
    throw new ImageRejectedError(/pixel limit/i.test(String((error as Error)?.message)) ? 'too-many-pixels' : 'undecodable')
  }
}

/**
 * An uploaded image, re-encoded by `encode`, or the same refusal from every feature: 415 with the
 * feature's message when the bytes are not an image, 413 for a pixel bomb, 422 with the feature's
 * message when the decoder cannot read it.
 */
export async function encodeUploadedImage(input: Buffer, encode: (input: Buffer) => Promise<Buffer>, notImage: string | Message) {
  if (!sniffImageType(input)) refuse(415, notImage, { detail: { reason: 'type' } })
  try {
    return await encode(input)
  } catch (error) {
    if (!(error instanceof ImageRejectedError)) throw error
    refuse(error.reason === 'too-many-pixels' ? 413 : 422, error.reason === 'too-many-pixels' ? error.message : notImage, {
      detail: { reason: error.reason },
    })
  }
}

/**
 * Re-encodes an avatar: honours the camera's orientation, crops to a 400×400 square,
 * and writes a fresh WebP, which drops every piece of metadata (EXIF, GPS, comments).
 */
export function encodeAvatar(input: Buffer) {
  return reencode(input, (image) => image.resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'centre' }).webp({ quality: 85 }))
}

/** Images attached to posts: re-encoded (metadata stripped), at most 2000 px on the long side. */
export function encodeImageAttachment(input: Buffer) {
  return reencode(input, (image) => image.resize(2000, 2000, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 82 }))
}

/** Session thumbnails and poster frames: 16:9 covers, at most 1280×720. */
export function encodeThumbnail(input: Buffer) {
  return reencode(input, (image) =>
    image.resize(1280, 720, { fit: 'cover', position: 'centre', withoutEnlargement: true }).webp({ quality: 80 }),
  )
}
