import { Search } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Button } from './button'
import { Input, Select } from './input'
import { Label } from './label'

/**
 * The console's filter forms (members, admissions, audit log), read back by `readQuery`
 * (platform/http/query.ts): a search box, a choice, a day, and apply / clear.
 */

export function SearchBox({ id, name = 'q', label, defaultValue }: { id: string; name?: string; label: string; defaultValue: string }) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input id={id} type="search" name={name} defaultValue={defaultValue} maxLength={100} className="pl-9" />
      </div>
    </div>
  )
}

/** One of `choices`, or `all` (the filter off: an empty value). */
export function ChoiceField({
  id,
  name,
  label,
  choices,
  all = 'Todos',
  defaultValue,
}: {
  id: string
  name: string
  label: string
  choices: Readonly<Record<string, string>>
  all?: string
  defaultValue: string
}) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} name={name} defaultValue={defaultValue} className="min-w-0" none={all} options={Object.entries(choices)} />
    </div>
  )
}

export function DayField({ id, name, label, defaultValue }: { id: string; name: string; label: string; defaultValue: string }) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name={name} type="date" defaultValue={defaultValue} className="min-w-0" />
    </div>
  )
}

/** Apply and clear, and whatever else the form offers beside them (the members' export). */
export function FilterButtons({
  submit = 'Aplicar',
  clearHref,
  className,
  children,
}: {
  submit?: string
  clearHref: string
  className?: string
  children?: ReactNode
}) {
  return (
    <div className={className ? `flex flex-wrap gap-2 ${className}` : 'flex flex-wrap gap-2'}>
      <Button type="submit">{submit}</Button>
      <Button asChild variant="outline">
        <Link to={clearHref}>Quitar filtros</Link>
      </Button>
      {children}
    </div>
  )
}
