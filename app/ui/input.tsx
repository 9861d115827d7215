import type { ComponentProps } from 'react'
import { cn } from './cn'

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-base placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60 aria-[invalid=true]:border-destructive md:text-sm',
        className,
      )}
      {...props}
    />
  )
}

/** A native select looking like an input (native: the phone's own picker, keyboard and screen readers for free). */
export const SELECT_CLASS =
  'h-10 rounded-md border border-input bg-background px-3 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm'

/** A native select with a first, empty option: `none` says what it means (no choice, the filter off). */
export function Select({
  none,
  options,
  className,
  ...props
}: { none: string; options: ReadonlyArray<readonly [value: string, text: string]> } & ComponentProps<'select'>) {
  return (
    <select className={cn(SELECT_CLASS, className)} {...props}>
      <option value="">{none}</option>
      {options.map(([value, text]) => (
        <option key={value} value={value}>
          {text}
        </option>
      ))}
    </select>
  )
}
