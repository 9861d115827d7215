import type { ReactNode } from 'react'

/** One figure of the dashboard: its name, the number, and what it means. */
export function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="grid content-start gap-0.5 rounded-lg border p-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
      {hint ? <dd className="text-xs text-muted-foreground">{hint}</dd> : null}
    </div>
  )
}

const euros = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' })
const percent = new Intl.NumberFormat('es-ES', { style: 'percent', maximumFractionDigits: 1 })
const number = new Intl.NumberFormat('es-ES')

export const formatEuros = (cents: number) => euros.format(cents / 100)
export const formatPercent = (share: number | null) => (share === null ? '—' : percent.format(share))
export const formatNumber = (value: number) => number.format(value)

/** How many rows a console list's filters found, read out as the filters change. */
export function ResultCount({ total, one, many }: { total: number; one: string; many: string }) {
  return (
    <p className="text-sm text-muted-foreground" aria-live="polite">
      {total === 1 ? `1 ${one}` : `${formatNumber(total)} ${many}`}
    </p>
  )
}
