import { ExternalLink } from 'lucide-react'
import { Link } from 'react-router'
import { Button } from '~/ui/button'
import { cn } from '~/ui/cn'
import { useAdmission } from './use-admission'

/**
 * 'Solicitar admisión' on the members' pages (premium gate and prompt, profile, member page): the
 * landing's AdmissionLink without the landing's copy and icons, which would add to these pages'
 * first load.
 */
export function AdmissionButton({ label = 'Solicitar Admisión', className }: { label?: string; className?: string }) {
  const { href, external } = useAdmission()
  return (
    <Button asChild variant="gold" className={cn('justify-self-start', className)}>
      {external ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {label} <ExternalLink aria-hidden />
          <span className="sr-only">(se abre en una pestaña nueva)</span>
        </a>
      ) : (
        <Link to={href}>{label}</Link>
      )}
    </Button>
  )
}
