import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { DataTable } from './data-table'

const JOBS = [
  { name: 'mail.send', kind: 'Correo', queued: 3 },
  { name: 'digest', kind: 'Resumen', queued: 0 },
]
const table = (rows: typeof JOBS) =>
  renderToStaticMarkup(
    <DataTable
      label="Trabajos pendientes"
      rows={rows}
      rowKey={(row) => row.name}
      empty="No hay trabajos pendientes."
      columns={[
        { header: 'Tipo', cell: (row) => row.kind },
        { header: 'En cola', cell: (row) => row.queued, numeric: true, labelled: true },
      ]}
    />,
  )

describe("the console's table", () => {
  test('is a named table: its columns have headers, the first cell names its row, a phone reads each value with its label', () => {
    const html = table(JOBS)
    expect(html).toMatch(/^<div[^>]*><table[^>]*aria-label="Trabajos pendientes"/)
    expect(html.match(/<th scope="col"[^>]*>([^<]*)<\/th>/g)?.map((th) => th.replace(/<[^>]+>/g, ''))).toEqual(['Tipo', 'En cola'])
    expect(html.match(/<th scope="row"[^>]*>([^<]*)<\/th>/g)?.map((th) => th.replace(/<[^>]+>/g, ''))).toEqual(['Correo', 'Resumen'])
    expect(html).toMatch(/<td[^>]*text-right[^>]*><span class="md:hidden">En cola: <\/span>3<\/td>/)
  })

  test('without rows says so, instead of an empty table', () => {
    const html = table([])
    expect(html).not.toContain('<table')
    expect(html).toMatch(/^<p[^>]*>No hay trabajos pendientes.<\/p>$/)
  })
})
