import { AdmissionButton } from '~/features/site/components/admission-button'
import { Crown } from 'lucide-react'
import { Form } from 'react-router'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { site } from '~/site.config'

/**
 * Spec: not premium → admission; premium → a badge, and the billing portal for a member with a payment
 * account. Premium an admin granted says so, so nobody looks for a subscription that does not exist.
 */
export function PremiumBox({
  isPremium,
  hasBillingAccount,
  grantedByAdmin = false,
}: {
  isPremium: boolean
  hasBillingAccount: boolean
  grantedByAdmin?: boolean
}) {
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
  return (
    <div className="grid gap-3">
      <Badge variant="premium" className="justify-self-start px-3 py-1 text-sm">
        <Crown className="size-4" aria-hidden /> Premium activo
      </Badge>
      {grantedByAdmin ? (
        <p className="text-sm text-muted-foreground">
          Tu acceso premium lo activó el equipo de {site.name} y no depende de ningún pago. Para cualquier cambio, escríbenos a{' '}
          <a href={`mailto:${site.contactEmail}`} className="text-primary underline underline-offset-4">
            {site.contactEmail}
          </a>
          .
        </p>
      ) : null}
      {/* Only a member with a payment account has a billing portal to open. */}
      {hasBillingAccount ? (
        <Form method="post" action="/billing/portal">
          <input type="hidden" name="intent" value="portal" />
          <Button type="submit" variant="outline">
            Gestionar suscripción
          </Button>
        </Form>
      ) : null}
    </div>
  )
}
