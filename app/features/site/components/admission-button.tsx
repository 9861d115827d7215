import { ExternalLink } from 'lucide-react'
import { Button } from '~/ui/button'
import { useAdmission } from './use-admission'
import { cn } from '~/ui/cn'

/** The external admission questionnaire, always in a new tab (spec), announced as such. */
export function AdmissionButton({ label = 'Solicitar Admisión', className }: { label?: string; className?: string }) {
  const admission = useAdmission()
  return (
    <Button asChild variant="gold" className={cn('justify-self-start', className)}>
      <a href={admission.formUrl} target="_blank" rel="noopener noreferrer">
        {label} <ExternalLink aria-hidden />
        <span className="sr-only">(se abre en una pestaña nueva)</span>
      </a>
    </Button>
  )
}
