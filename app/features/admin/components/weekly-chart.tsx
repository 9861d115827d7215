/**
 * A measure's twelve weeks as bars: an SVG drawn for the eye (hidden from screen readers) and the
 * same numbers as a table that screen readers read instead. No chart library: a few elements.
 */
export function WeeklyChart({ title, weeks, values }: { title: string; weeks: string[]; values: number[] }) {
  const max = Math.max(1, ...values)
  const width = 240
  const height = 64
  const slot = width / values.length
  return (
    <figure className="grid gap-1">
      <svg viewBox={`0 0 ${width} ${height + 14}`} className="h-auto w-full text-primary" aria-hidden focusable="false">
        {values.map((value, index) => {
          const barHeight = Math.max(value > 0 ? 2 : 0, (value / max) * height)
          return (
            <rect
              key={weeks[index]}
              x={index * slot + 2}
              y={height - barHeight}
              width={slot - 4}
              height={barHeight}
              rx={2}
              className="fill-current"
              opacity={index === values.length - 1 ? 0.55 : 1}
            >
              <title>{`${weekLabel(weeks[index]!)}: ${value}`}</title>
            </rect>
          )
        })}
        <line x1={0} x2={width} y1={height + 0.5} y2={height + 0.5} className="stroke-border" />
        <text x={0} y={height + 12} className="fill-muted-foreground text-[9px]">
          {weekLabel(weeks[0]!)}
        </text>
        <text x={width} y={height + 12} textAnchor="end" className="fill-muted-foreground text-[9px]">
          {weekLabel(weeks.at(-1)!)}
        </text>
      </svg>
      {/* In a clipped box: a table is as wide as its cells, whatever width sr-only gives it. */}
      <div className="sr-only">
        <table>
          <caption>{title}: por semana, las últimas 12 semanas</caption>
          <thead>
            <tr>
              <th scope="col">Semana del</th>
              <th scope="col">Total</th>
            </tr>
          </thead>
          <tbody>
            {values.map((value, index) => (
              <tr key={weeks[index]}>
                <th scope="row">{weekLabel(weeks[index]!)}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  )
}

const MONTHS = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic']

/** '2026-11-16' → '16 nov'. */
export function weekLabel(day: string) {
  const [, month, date] = day.split('-').map(Number) as [number, number, number]
  return `${date} ${MONTHS[month - 1]}`
}
