import type { ComponentProps } from 'react'
import { cn } from './cn'

export function Label({ className, ...props }: ComponentProps<'label'>) {
  // Every use passes htmlFor (or wraps its control) through props.
  // eslint-disable-next-line jsx-a11y/label-has-associated-control
  return <label className={cn('text-sm font-medium leading-none', className)} {...props} />
}
