import { FlaskConical } from 'lucide-react'
import type { ReactNode } from 'react'
import { Badge } from '~/ui/badge'
import { Card, CardDescription, CardHeader, CardTitle } from '~/ui/card'

/** The local stand-ins for Stripe's pages say, before anything else, that nothing is real. */
export function TestModeCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <Card>
        <CardHeader>
          <Badge variant="warning" className="justify-self-start">
            <FlaskConical className="size-3.5" aria-hidden /> Modo de prueba
          </Badge>
          <CardTitle className="text-2xl">{title}</CardTitle>
          <CardDescription>{description}</CardDescription>
        </CardHeader>
        {children}
      </Card>
    </div>
  )
}
