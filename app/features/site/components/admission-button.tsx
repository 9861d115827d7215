import { ExternalLink } from 'lucide-react'
import { Button } from '~/ui/button'
import { site } from '~/site.config'
import { cn } from '~/ui/cn'

/** The external admission questionnaire, always in a new tab (spec), announced as such. */
export function AdmissionButton({ label = 'Solicitar Admisión', className }: { label?: string; className?: string }) {
  return (
    <Button asChild variant="gold" className={cn('justify-self-start', className)}>
      <a href={site.admissionFormUrl} target="_blank" rel="noopener noreferrer">
        {label} <ExternalLink aria-hidden />
        <span className="sr-only">(se abre en una pestaña nueva)</span>
      </a>
    </Button>
  )
}
