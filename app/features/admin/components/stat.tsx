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
