import { AdmissionButton } from '~/features/site/components/admission-button'
import { Lock } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'

/** What members without premium see where premium content would be (spec 001 §2). */
export function PremiumPrompt({ description }: { description: string }) {
  return (
    <Card className="border-gold/40 bg-amber-50/40">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Lock className="size-5 text-gold" aria-hidden /> Acceso Premium Requerido
        </CardTitle>
        <CardDescription className="text-slate-700">{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <AdmissionButton label="Solicitar Admisión" />
      </CardContent>
    </Card>
  )
}
