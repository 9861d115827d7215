import { crc32, deflateSync } from 'node:zlib'

/**
 * A real pixel bomb: a valid PNG of `width` × `height` black pixels (1 bit each), a few kB on
 * the wire and hundreds of megabytes once decoded. Made directly (zlib) in milliseconds,
 * where drawing it with an image library takes seconds.
 */
export function pixelBombPng(width = 8000, height = 6000) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.writeUInt8(1, 8) // bit depth
  header.writeUInt8(0, 9) // greyscale
  // Each row: filter byte 0, then width bits of zeros.
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
