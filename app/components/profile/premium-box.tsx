import { AdmissionButton } from '~/components/admission-button'
import { Crown } from 'lucide-react'
import { Form } from 'react-router'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'

/** Spec: not premium → admission; premium with a payment customer → billing portal; else a badge. */
export function PremiumBox({ isPremium, hasBillingAccount }: { isPremium: boolean; hasBillingAccount: boolean }) {
  if (!isPremium) {
    return (
      <div className="grid gap-3">
        <p className="text-sm text-muted-foreground">
          Aún no eres miembro premium. Solicita tu admisión para acceder a las sesiones con CEOs, el directorio y los eventos.
        </p>
        <AdmissionButton label="Solicitar admisión" />
      </div>
    )
  }
  if (hasBillingAccount) {
    return (
      <Form method="post" action="/billing/portal" className="grid gap-3">
        <p className="flex items-center gap-2 text-sm">
          <Crown className="size-4 text-gold" aria-hidden /> Tu membresía premium está activa.
        </p>
        <Button type="submit" variant="outline" className="justify-self-start">
          Gestionar suscripción
        </Button>
      </Form>
    )
  }
  return (
    <Badge variant="premium" className="justify-self-start px-3 py-1 text-sm">
      <Crown className="size-4" aria-hidden /> Premium activo
    </Badge>
  )
}
