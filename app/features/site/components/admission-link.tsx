import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Button } from '~/ui/button'
import { NEW_TAB_NOTICE } from '~/features/site/content'
import { cn } from '~/ui/cn'
import { ExternalLink } from './icons'
import { useAdmission } from './use-admission'

/** Focus ring that stays visible on navy and teal backgrounds. */
export const ON_DARK_FOCUS = 'focus-visible:ring-white focus-visible:ring-offset-navy'

type Tone = 'gold' | 'outline-dark' | 'primary'

const TONES: Record<Tone, { variant: 'gold' | 'outline' | 'default'; className: string }> = {
  // The theme pairs gold with gold-foreground at AA contrast: keep that pair.
  gold: { variant: 'gold', className: 'font-semibold' },
  'outline-dark': { variant: 'outline', className: 'border-white/70 bg-transparent text-white hover:bg-white/10 hover:text-white' },
  primary: { variant: 'default', className: 'font-semibold' },
}

/**
 * Every 'Solicitar admisión': a button-styled link to where the operator's setting sends it, the
 * in-app form, or the external questionnaire in a new tab, announced as such to screen readers.
 */
export function AdmissionLink({
  children,
  tone = 'gold',
  onDark = false,
  size = 'lg',
  className,
}: {
  children: ReactNode
  tone?: Tone
  onDark?: boolean
  size?: 'default' | 'lg'
  className?: string
}) {
  const { variant, className: toneClass } = TONES[tone]
  const { href, external } = useAdmission()
  return (
    <Button asChild size={size} variant={variant} className={cn(toneClass, onDark && ON_DARK_FOCUS, className)}>
      {external ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {children}
          <ExternalLink aria-hidden />
          <span className="sr-only"> {NEW_TAB_NOTICE}</span>
        </a>
      ) : (
        <Link to={href}>{children}</Link>
      )}
    </Button>
  )
}

/** Small uppercase label above a section title. */
export function Eyebrow({ children, onDark = false, className }: { children: ReactNode; onDark?: boolean; className?: string }) {
  return (
    <p className={cn('text-sm font-semibold uppercase tracking-widest', onDark ? 'text-amber-300' : 'text-primary', className)}>
      {children}
    </p>
  )
}
