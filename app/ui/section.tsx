import type { ReactNode } from 'react'

/**
 * A section named by its heading (aria-labelledby), as screen readers list it: `id` ties the two
 * (the heading's id is `${id}-title`).
 */
export function Section({
  id,
  title,
  heading: Heading = 'h2',
  titleClassName,
  className,
  children,
}: {
  id: string
  title: ReactNode
  heading?: 'h2' | 'h3'
  titleClassName?: string
  className?: string
  children: ReactNode
}) {
  return (
    <section aria-labelledby={`${id}-title`} className={className}>
      <Heading id={`${id}-title`} className={titleClassName}>
        {title}
      </Heading>
      {children}
    </section>
  )
}
