/** What a form posts besides what is typed (the intent, the id of what it acts on); undefined values are left out. */
export function HiddenFields({ values }: { values: Record<string, string | number | undefined> }) {
  return Object.entries(values).map(([name, value]) =>
    value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
  )
}
