import type { ReactNode } from 'react'
import { cn } from './cn'

export interface Column<Row> {
  header: string
  cell: (row: Row) => ReactNode
  /** On a phone, where the value alone would not say what it is, the header goes before it. */
  labelled?: boolean
  /** A count: right-aligned under its header, in figures of one width. */
  numeric?: boolean
  className?: string
}

/**
 * The console's tables (members, admissions, audit log, jobs, restricted accounts): a table on a
 * wide screen, whose first column names each row; on a phone each row stacks as a card of lines
 * (the header row is hidden there, so `labelled` columns say what they are). Without rows, `empty`
 * says so instead.
 */
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  className,
}: {
  label: string
  columns: Column<Row>[]
  rows: Row[]
  rowKey: (row: Row) => string | number
  empty: string
  className?: string
}) {
  if (rows.length === 0) return <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">{empty}</p>
  return (
    <div className={cn('overflow-x-auto rounded-lg border', className)}>
      <table aria-label={label} className="w-full text-sm">
        <thead className="hidden bg-muted/50 text-left md:table-header-group">
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={cn('px-3 py-2 font-medium', column.numeric && 'text-right')}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className="grid gap-1 border-t p-3 first:border-t-0 md:table-row md:p-0">
              {columns.map((column, index) => {
                const Cell = index === 0 ? 'th' : 'td'
                return (
                  <Cell
                    key={column.header}
                    scope={index === 0 ? 'row' : undefined}
                    className={cn(
                      'text-left font-normal md:px-3 md:py-2',
                      column.numeric && 'tabular-nums md:text-right',
                      column.className,
                    )}
                  >
                    {column.labelled ? <span className="md:hidden">{column.header}: </span> : null}
                    {column.cell(row)}
                  </Cell>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
