import { useFetcher } from 'react-router'
import type { Result } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/ui/card'
import { HiddenFields } from '~/ui/hidden-fields'
import { useResultToast } from '~/ui/toast'
import { MESSAGES, type MessagePolicy, POLICY_LABELS } from '../limits'

export interface MessagePreferencesView {
  policy: MessagePolicy
  blocked: Array<{ id: string; name: string }>
}

/** /perfil's 'Mensajes privados': who may write to me, and the members I blocked ('Desbloquear'). */
export function MessagePreferencesCard({ preferences }: { preferences: MessagePreferencesView }) {
  const policy = useFetcher<Result>()
  useResultToast(policy.state, policy.data)
  return (
    <Card id="mensajes">
      <CardHeader>
        <CardTitle>Mensajes privados</CardTitle>
        <CardDescription>{MESSAGES.privacy}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <policy.Form method="post" action="/mensajes" className="grid gap-3">
          <input type="hidden" name="intent" value="policy" />
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-semibold">Quién puede escribirme</legend>
            {(Object.keys(POLICY_LABELS) as MessagePolicy[]).map((value) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name="policy"
                  value={value}
                  defaultChecked={preferences.policy === value}
                  className="size-4 accent-primary"
                />
                {POLICY_LABELS[value]}
              </label>
            ))}
          </fieldset>
          <Button type="submit" size="sm" variant="outline" className="justify-self-start" disabled={policy.state !== 'idle'}>
            Guardar quién puede escribirme
          </Button>
        </policy.Form>
        <div className="grid gap-2">
          <h3 className="text-sm font-semibold">Miembros bloqueados</h3>
          {preferences.blocked.length === 0 ? (
            <p className="text-sm text-muted-foreground">No has bloqueado a nadie.</p>
          ) : (
            <ul className="grid gap-2">
              {preferences.blocked.map((member) => (
                <BlockedMember key={member.id} member={member} />
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  )
}

function BlockedMember({ member }: { member: { id: string; name: string } }) {
  const fetcher = useFetcher<Result>()
  useResultToast(fetcher.state, fetcher.data)
  return (
    <li className="flex items-center justify-between gap-3 text-sm">
      <span>{member.name}</span>
      <fetcher.Form method="post" action="/mensajes">
        <HiddenFields values={{ intent: 'unblock', memberId: member.id }} />
        <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
          {MESSAGES.unblock}
        </Button>
      </fetcher.Form>
    </li>
  )
}
