import { AlertCircle, CheckCircle2, Circle } from 'lucide-react'
import { Badge } from '~/ui/badge'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { type CompletenessFields, REQUIRED_PROFILE_FIELDS } from '~/features/account/profile-completeness'

/** Spec: 'Perfil Incompleto' with the five required items and an 'n/5 completado' badge. */
export function IncompleteProfileCard({ profile }: { profile: CompletenessFields | null }) {
  const items = REQUIRED_PROFILE_FIELDS.map((field) => ({ ...field, done: Boolean(profile?.[field.key]?.trim()) }))
  const done = items.filter((item) => item.done).length
  return (
    <Card className="border-amber-300 bg-amber-50" role="region" aria-labelledby="incomplete-profile-title">
      <CardHeader className="pb-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id="incomplete-profile-title" className="flex items-center gap-2 text-lg text-amber-950">
            <AlertCircle className="size-5" aria-hidden /> Perfil Incompleto
          </CardTitle>
          <Badge variant="warning">
            {done}/{items.length} completado
          </Badge>
        </div>
        <CardDescription className="text-amber-950">
          Completa tu perfil para acceder a la comunidad y ser visible para los demás miembros. Necesitas:
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2 text-sm">
          {items.map((item) => (
            <li key={item.key} className="flex items-center gap-2 text-amber-950">
              {item.done ? <CheckCircle2 className="size-4 text-emerald-700" aria-hidden /> : <Circle className="size-4" aria-hidden />}
              <span className={item.done ? 'line-through opacity-70' : undefined}>{item.label}</span>
              <span className="sr-only">{item.done ? '(completado)' : '(pendiente)'}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}
