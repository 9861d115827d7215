import { Search } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Button } from '~/ui/button'
import { Input } from '~/ui/input'
import { Label } from '~/ui/label'

/** The console's filter forms (members, admissions, audit log): a search box, a day, and apply / clear. */

export function SearchBox({ id, label, defaultValue }: { id: string; label: string; defaultValue: string }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input id={id} type="search" name="q" defaultValue={defaultValue} maxLength={100} className="pl-9" />
      </div>
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
