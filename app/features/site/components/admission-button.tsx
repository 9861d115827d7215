import { AdmissionLink } from './admission-link'

/** 'Solicitar admisión' where a members' page offers it (premium gate and prompt, profile, member page). */
export function AdmissionButton({ label = 'Solicitar Admisión', className }: { label?: string; className?: string }) {
  return (
    <AdmissionLink size="default" className={className ? `justify-self-start ${className}` : 'justify-self-start'}>
      {label}
    </AdmissionLink>
  )
}
