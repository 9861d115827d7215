import { describe, expect, test } from 'vitest'
import { filterQuery, listHref, readQuery } from './query'

const read = (query: string) => readQuery(new URLSearchParams(query))
const SECTORS = { pharma: 'Pharma', medtech: 'Medtech' }

describe("a list page's filter, read from its query string", () => {
  test('keeps what is valid', () => {
    const query = read('q=+Ana+Ruiz+&sector=medtech&desde=2026-03-01&hasta=2026-03-31&pagina=3&antes=42')
    expect(query.text('q')).toBe('Ana Ruiz')
    expect(query.choice('sector', SECTORS)).toBe('medtech')
    expect(query.day('desde')).toBe('2026-03-01')
    expect(query.day('hasta')).toBe('2026-03-31')
    expect(query.page()).toBe(3)
    expect(query.positive('antes')).toBe(42)
  })

  test('ignores the rest (the filter is off), never an error; texts are cut at 100 characters', () => {
    const query = read(`q=${'a'.repeat(5_000)}&sector=toString&desde=2026-02-31&hasta=ayer&pagina=-4&antes=abc`)
    expect(query.text('q')).toBe('a'.repeat(100))
    expect(query.choice('sector', SECTORS)).toBe('')
    expect(query.choice('otro', SECTORS)).toBe('')
    expect(query.day('desde')).toBe('')
    expect(query.day('hasta')).toBe('')
    expect(query.page()).toBe(1)
    expect(query.positive('antes')).toBeNull()
    for (const page of ['abc', '0', '1e400', '99999999999999999999']) expect(read(`pagina=${page}`).page(), page).toBe(1)
    expect(read('pagina=999999').page()).toBe(10_000)
  })
})

describe('the filter back in a link', () => {
  test('leaves out what is empty and the first page', () => {
    expect(filterQuery({ q: 'ana ruiz', sector: '', estado: null, desde: undefined, pagina: 1 })).toBe('q=ana+ruiz')
    expect(listHref('/admin/admisiones', { q: '', pagina: 2 })).toBe('/admin/admisiones?pagina=2')
    expect(listHref('/admin/admisiones', { q: '', pagina: 1 })).toBe('/admin/admisiones')
    expect(listHref('/admin/registro', { quien: 'a&b', antes: 7 })).toBe('/admin/registro?quien=a%26b&antes=7')
  })
})
