import { useEffect, useState } from 'react'
import { Form, useNavigation } from 'react-router'
import { Button } from '~/ui/button'
import type { Role } from '~/platform/auth/schema'
import { CHANNEL_LABELS, CHANNELS, type Channel, DIGEST_LABELS, type DigestFrequency, type Topic, topicsFor } from '../preferences'

export interface PreferencesView {
  topics: Partial<Record<Topic, Channel>>
  digest: DigestFrequency
  timeZone: string | null
  /** Quiet hours, 'HH:MM' in the member's zone. */
  quietStart: string
  quietEnd: string
}

const radio = 'size-4 shrink-0 accent-primary'

/** Per topic, where the member hears of it; and how often the digest comes. Saved with one button. */
export function PreferencesForm({
  preferences,
  emailOn,
  roles,
}: {
  preferences: PreferencesView
  emailOn: boolean
  roles: readonly Role[]
}) {
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'preferences'
  // The browser knows the member's zone; the digest goes out at 08:00 there.
  const [timeZone, setTimeZone] = useState(preferences.timeZone)
  // Named in the browser only: the server's and the browser's names for a zone may differ.
  const [zoneName, setZoneName] = useState<string | null>(null)
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || preferences.timeZone
    setTimeZone(zone)
    if (zone) setZoneName(nameOf(zone))
  }, [preferences.timeZone])
  return (
    <Form method="post" action="/perfil" preventScrollReset className="grid gap-5">
      <input type="hidden" name="intent" value="preferences" />
      {timeZone ? <input type="hidden" name="timeZone" value={timeZone} /> : null}
      <div className="grid gap-1">
        <h3 className="font-semibold">Qué te avisamos y cómo</h3>
        <p className="text-sm text-muted-foreground">
          {emailOn
            ? 'Nunca te avisamos de lo que haces tú. Varios avisos seguidos llegan juntos en un solo email.'
            : 'Los emails están desactivados: verás estas novedades solo en la web hasta que los actives arriba.'}
        </p>
      </div>
      <div className="grid gap-4">
        {topicsFor({ roles }).map((topic) => (
          <div key={topic.key} className="grid gap-2 border-b pb-4 last:border-b-0">
            <p id={`topic-${topic.key}`} className="text-sm font-medium">
              {topic.label}
            </p>
            <div role="radiogroup" aria-labelledby={`topic-${topic.key}`} className="flex flex-wrap gap-x-4 gap-y-2">
              {CHANNELS.map((channel) => (
                <label key={channel} className="flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={topic.key}
                    value={channel}
                    defaultChecked={preferences.topics[topic.key] === channel}
                    className={radio}
                  />
                  {CHANNEL_LABELS[channel]}
                </label>
              ))}
            </div>
          </div>
        ))}
      </div>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Resumen de la comunidad por email</legend>
        <p className="text-sm text-muted-foreground">
          Lo más comentado, las nuevas sesiones y los próximos eventos, a las 08:00 {zoneName ? `(${zoneName})` : 'en tu zona horaria'}. Si
          no hay nada nuevo, no te escribimos.
        </p>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {(Object.keys(DIGEST_LABELS) as DigestFrequency[]).map((frequency) => (
            <label key={frequency} className="flex items-center gap-2 text-sm">
              <input type="radio" name="digest" value={frequency} defaultChecked={preferences.digest === frequency} className={radio} />
              {DIGEST_LABELS[frequency]}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="grid gap-2">
        <legend className="text-sm font-medium">Horas de silencio</legend>
        <p className="text-sm text-muted-foreground">
          Las notificaciones push que lleguen entre estas horas {zoneName ? `(${zoneName})` : 'de tu zona horaria'} esperan al final; en la
          web las verás al momento.
        </p>
        <div className="flex flex-wrap gap-4">
          <label className="grid gap-1 text-sm">
            Desde
            <input
              type="time"
              name="quietStart"
              required
              defaultValue={preferences.quietStart}
              className="h-10 rounded-md border border-input bg-background px-3"
            />
          </label>
          <label className="grid gap-1 text-sm">
            Hasta
            <input
              type="time"
              name="quietEnd"
              required
              defaultValue={preferences.quietEnd}
              className="h-10 rounded-md border border-input bg-background px-3"
            />
          </label>
        </div>
      </fieldset>
      <Button type="submit" variant="outline" disabled={saving} className="justify-self-start">
        {saving ? 'Guardando...' : 'Guardar preferencias'}
      </Button>
    </Form>
  )
}

/** 'hora de Europa central', 'hora de México': the zone as a Spanish reader says it. */
function nameOf(timeZone: string) {
  try {
    const parts = new Intl.DateTimeFormat('es-ES', { timeZone, timeZoneName: 'longGeneric' }).formatToParts(new Date())
    return parts.find((part) => part.type === 'timeZoneName')?.value ?? null
  } catch {
    return null
  }
}
