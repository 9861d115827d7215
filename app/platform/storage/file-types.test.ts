import { crc32 } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { downloadName, sniffAttachment, zipEntryNames } from './file-types.server'

/** A zip archive with stored (uncompressed) entries, as an office suite would write a .docx. */
function storedZip(entries: Record<string, string>) {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text)
    const nameBytes = Buffer.from(name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt32LE(crc32(data), 14)
    local.writeUInt32LE(data.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(nameBytes.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt32LE(crc32(data), 16)
    central.writeUInt32LE(data.length, 20)
    central.writeUInt32LE(data.length, 24)
    central.writeUInt16LE(nameBytes.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, nameBytes, data)
    centrals.push(central, nameBytes)
    offset += 30 + nameBytes.length + data.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(Object.keys(entries).length, 8)
  end.writeUInt16LE(Object.keys(entries).length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}

const DOCX_PARTS = { '[Content_Types].xml': '<Types/>', '_rels/.rels': '<Relationships/>', 'word/document.xml': '<w:document/>' }

describe('.docx attachments are judged by their container, not their name', () => {
  test('a real Word document is accepted', () => {
    expect(zipEntryNames(storedZip(DOCX_PARTS))).toEqual(Object.keys(DOCX_PARTS))
    expect(sniffAttachment(storedZip(DOCX_PARTS), 'informe.docx')?.kind).toBe('docx')
  })

  test('a zip that only mentions word/ in a file is refused', () => {
    const impostor = storedZip({ 'leeme.txt': 'word/document.xml [Content_Types].xml', 'programa.exe': 'MZ' })
    expect(sniffAttachment(impostor, 'informe.docx')).toBeNull()
  })

  test('a zip without the Office parts, and bytes that only start like a zip, are refused', () => {
    expect(sniffAttachment(storedZip({ 'word/document.xml': '<w:document/>' }), 'informe.docx')).toBeNull()
    expect(sniffAttachment(Buffer.from('PK\u0003\u0004 word/document.xml [Content_Types].xml'), 'informe.docx')).toBeNull()
  })
})

describe('download names (spec 001 §5: letters, digits, dots and hyphens only)', () => {
  test('accents dropped, anything else a hyphen, our extension, a fallback when nothing is left', () => {
    expect(downloadName('Presentación final (v2).PDF', 'pdf', 'documento')).toBe('Presentacion-final-v2.pdf')
    expect(downloadName('../../etc/passwd.pdf', 'pdf', 'documento')).toBe('etc-passwd.pdf')
    expect(downloadName('¿?.pdf', 'pdf', 'documento')).toBe('documento.pdf')
    expect(downloadName('informe anual.exe', 'pdf')).toBe('informe-anual.pdf')
    expect(downloadName('<script>.txt', 'txt')).toBe('script.txt')
    expect(downloadName('', 'docx')).toBe('archivo.docx')
  })
})
