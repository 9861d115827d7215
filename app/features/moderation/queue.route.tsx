import { Form, Link, redirect, useNavigation } from 'react-router'
import { z } from 'zod'
import { HiddenFields } from '~/ui/hidden-fields'
import { SELECT_CLASS } from '~/ui/input'
import { can } from '~/platform/auth/capabilities'
import { requireModerationConsole } from '~/features/account/guards.server'
import { fullDateTime } from '~/platform/dates'
import { listHref, readQuery } from '~/platform/http/query'
import { guardedAction, handleIntent } from '~/platform/http/responses.server'
import { displayName } from '~/features/account/display-name'
import { ActionStatus } from '~/ui/action-status'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/ui/card'
import { DataTable } from '~/ui/data-table'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Section } from '~/ui/section'
import { decide, decideOnMember, decodeQueueCursor, listQueue, listRestricted } from './moderation.server'
import { HIDE_REASON_MAX, REPORT_REASONS, SUSPENSION_DAYS } from './reasons'
import { DecisionIntent, MemberDecisionIntent } from './schemas'
import type { Route } from './+types/queue.route'

const KIND_LABELS = { post: 'Post', comment: 'Comentario', session_comment: 'Comentario de una sesión', member: 'Perfil' } as const
const ACTION_LABELS = {
  hide: 'Ocultado',
  delete: 'Eliminado',
  dismiss: 'Informe descartado',
  restore: 'Visible de nuevo',
  warn: 'Advertido',
  suspend: 'Suspendido',
  ban: 'Expulsado',
  lift: 'Suspensión levantada',
} as const

export async function loader({ request }: Route.LoaderArgs) {
  const moderator = await requireModerationConsole(request)
  const params = new URL(request.url).searchParams
  // Each list pages after the last entry shown (`desde`, `limitadas`); anything else is its first page.
  const after = decodeQueueCursor(params.get('desde'))
  const restrictedAfter = readQuery(params).text('limitadas') || null
  const [{ entries, next }, restricted] = await Promise.all([listQueue(after), listRestricted(restrictedAfter)])
  // A page emptied by the decisions taken on it goes back to the first.
  if (entries.length === 0 && after) throw redirect('/admin/moderacion')
  return {
    canBan: can(moderator, 'ban-members'),
    after: after ? params.get('desde') : null,
    next,
    restrictedAfter,
    nextRestricted: restricted.next,
    queue: entries.map((entry) => ({
      ...entry,
      since: entry.since.toISOString(),
      authorId: entry.author?.userId ?? null,
      author: entry.author ? displayName(entry.author) : 'Miembro eliminado',
      history: entry.history.map((decision) => ({ ...decision, createdAt: decision.createdAt.toISOString() })),
    })),
    restricted: restricted.members.map((member) => ({
      userId: member.userId,
      name: displayName(member),
      reason: member.reason,
      until: member.bannedAt ? null : member.suspendedUntil!.toISOString(),
    })),
  }
}

const QueueIntent = z.discriminatedUnion('intent', [DecisionIntent, MemberDecisionIntent])

export const action = guardedAction(requireModerationConsole, (request, moderator) =>
  handleIntent(request, QueueIntent, {
    decide: { invalid: 'Revisa la decisión', run: (input) => decide(moderator, input) },
    member: { invalid: 'Revisa la decisión sobre el autor', run: (input) => decideOnMember(moderator, input) },
  }),
)

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudo cargar la cola de moderación" />
}

/** /admin/moderacion: what members reported, grouped by item, the hidden items whose authors ask for a review, and the accounts under a suspension. */
export default function ModerationQueue({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle'
  const { queue, restricted, canBan } = loaderData
  const href = (page: { desde?: string | null; limitadas?: string | null }) => listHref('/admin/moderacion', page)
  return (
    <Section id="moderation" title="Moderación" titleClassName="text-xl font-semibold" className="grid gap-4">
      <ActionStatus result={actionData && !actionData.ok ? actionData : undefined} />
      {queue.length === 0 ? <p className="text-muted-foreground">No hay informes pendientes.</p> : null}
      {queue.map((entry) => (
        <Card key={`${entry.kind}:${entry.itemId}`}>
          <CardHeader>
            <CardTitle className="flex flex-wrap items-center gap-2 text-base">
              {KIND_LABELS[entry.kind]} de {entry.author}
              {entry.review ? (
                <Badge variant="secondary">Revisión pedida</Badge>
              ) : (
                <Badge>{`${entry.reports} ${entry.reports === 1 ? 'informe' : 'informes'}`}</Badge>
              )}
              {entry.hidden ? <Badge variant="secondary">{entry.kind === 'member' ? 'Expulsado' : 'Oculto'}</Badge> : null}
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-3 text-sm">
            <blockquote className="whitespace-pre-line break-words rounded-md bg-muted/60 p-3">{entry.text}</blockquote>
            <a href={entry.link} className="justify-self-start font-medium text-primary underline">
              {entry.kind === 'member' ? 'Ver su perfil' : 'Verlo en su contexto'}
            </a>
            <p>
              {entry.reasons.length ? (
                <>
                  <span className="font-medium">Motivos:</span> {entry.reasons.map((reason) => REPORT_REASONS[reason]).join(', ')} · primer
                  informe el {fullDateTime(entry.since)}
                </>
              ) : (
                <>Revisión pedida el {fullDateTime(entry.since)}</>
              )}
            </p>
            {entry.messages.map((reported, index) => (
              // A reported private message and the five before it: all of a conversation moderators read (issue 41).
              <ol key={index} className="grid gap-1 rounded-md border p-3" aria-label="Mensajes privados informados">
                {reported.messages.map((message, position) => (
                  <li key={position} className="break-words">
                    <span className="font-medium">{message.byReported ? 'Miembro informado' : 'Quien informa'}</span> ·{' '}
                    {fullDateTime(message.at)}
                    <span className="block whitespace-pre-line">{message.body}</span>
                  </li>
                ))}
              </ol>
            ))}
            {entry.notes.length ? (
              <ul className="grid list-disc gap-1 pl-5" aria-label="Notas de quienes informaron">
                {entry.notes.map((note, index) => (
                  <li key={index} className="break-words">
                    {note}
                  </li>
                ))}
              </ul>
            ) : null}
            <div>
              <p className="font-medium">{entry.kind === 'member' ? 'Historial del miembro' : 'Historial del autor'}</p>
              {entry.history.length ? (
                <ul className="grid gap-1 text-muted-foreground">
                  {entry.history.map((decision, index) => (
                    <li key={index}>
                      {fullDateTime(decision.createdAt)} · {ACTION_LABELS[decision.action]}
                      {decision.reason ? `: ${decision.reason}` : ''}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-muted-foreground">Sin decisiones anteriores.</p>
              )}
            </div>
            {entry.kind === 'member' ? null : (
              <Form method="post" className="grid gap-3 border-t pt-3">
                <HiddenFields values={{ intent: 'decide', kind: entry.kind, itemId: entry.itemId }} />
                <label className="grid gap-1">
                  <span className="font-medium">Motivo que verá el autor (para ocultar o eliminar)</span>
                  <textarea name="reason" maxLength={HIDE_REASON_MAX} rows={2} className="rounded-md border bg-background p-2" />
                </label>
                <div className="flex flex-wrap gap-2">
                  <Button type="submit" name="action" value="hide" size="sm" disabled={busy}>
                    {entry.review ? 'Mantener oculto' : 'Ocultar'}
                  </Button>
                  {entry.hidden ? (
                    <Button type="submit" name="action" value="restore" size="sm" variant="outline" disabled={busy}>
                      Restaurar
                    </Button>
                  ) : (
                    <Button type="submit" name="action" value="dismiss" size="sm" variant="outline" disabled={busy}>
                      Descartar el informe
                    </Button>
                  )}
                  <Button type="submit" name="action" value="delete" size="sm" variant="destructive" disabled={busy}>
                    Eliminar
                  </Button>
                </div>
              </Form>
            )}
            {entry.authorId && !(entry.kind === 'member' && entry.hidden) ? (
              <Form method="post" className="grid gap-3 border-t pt-3" aria-label={`Sobre ${entry.author}`}>
                <HiddenFields values={{ intent: 'member', userId: entry.authorId }} />
                <p className="font-medium">Sobre {entry.author}</p>
                <label className="grid gap-1">
                  <span>Aviso o motivo que verá el miembro</span>
                  <textarea name="reason" maxLength={HIDE_REASON_MAX} rows={2} className="rounded-md border bg-background p-2" />
                </label>
                <div className="flex flex-wrap items-center gap-2">
                  <Button type="submit" name="action" value="warn" size="sm" variant="outline" disabled={busy}>
                    Advertir al autor
                  </Button>
                  <label className="flex items-center gap-2">
                    <span>Modo lectura durante</span>
                    <select name="days" defaultValue="7" className={SELECT_CLASS}>
                      {SUSPENSION_DAYS.map((days) => (
                        <option key={days} value={days}>
                          {days === 1 ? '1 día' : `${days} días`}
                        </option>
                      ))}
                    </select>
                  </label>
                  <Button type="submit" name="action" value="suspend" size="sm" variant="outline" disabled={busy}>
                    Suspender
                  </Button>
                  {canBan ? (
                    <Button type="submit" name="action" value="ban" size="sm" variant="destructive" disabled={busy}>
                      Expulsar
                    </Button>
                  ) : null}
                  {entry.kind === 'member' ? (
                    <Button type="submit" name="action" value="dismiss" size="sm" variant="outline" disabled={busy}>
                      Descartar el informe
                    </Button>
                  ) : null}
                </div>
                <p className="text-xs text-muted-foreground">
                  El aviso, la suspensión y la expulsión le llegan también por correo.
                  {canBan
                    ? ' Expulsar cierra todas sus sesiones y le impide volver a entrar. Su premium no cambia: cancélalo o retíralo en su ficha si corresponde.'
                    : ''}
                </p>
              </Form>
            ) : null}
          </CardContent>
        </Card>
      ))}
      <PageLinks
        label="Páginas de la cola de moderación"
        first={loaderData.after ? href({ limitadas: loaderData.restrictedAfter }) : null}
        next={loaderData.next ? href({ desde: loaderData.next, limitadas: loaderData.restrictedAfter }) : null}
      />
      {restricted.length || loaderData.restrictedAfter ? (
        <Section id="restricted" title="Cuentas limitadas" heading="h3" titleClassName="text-lg font-semibold" className="grid gap-2">
          <DataTable
            label="Cuentas limitadas"
            rows={restricted}
            rowKey={(member) => member.userId}
            empty="No hay cuentas limitadas."
            columns={[
              {
                header: 'Miembro',
                className: 'break-words',
                cell: (member) => (
                  <a href={`/usuario/${member.userId}`} className="font-medium text-primary underline">
                    {member.name}
                  </a>
                ),
              },
              {
                header: 'Limitación',
                className: 'break-words',
                cell: (member) => (
                  <>
                    {member.until ? `En modo lectura hasta el ${fullDateTime(member.until)}` : 'Expulsado'}
                    {member.reason ? `: ${member.reason}` : ''}
                  </>
                ),
              },
              {
                header: 'Levantar',
                cell: (member) =>
                  member.until || canBan ? (
                    <Form method="post">
                      <HiddenFields values={{ intent: 'member', userId: member.userId }} />
                      <Button
                        type="submit"
                        name="action"
                        value="lift"
                        size="sm"
                        variant="outline"
                        disabled={busy}
                        aria-label={`Levantar la limitación de ${member.name}`}
                      >
                        Levantar
                      </Button>
                    </Form>
                  ) : null,
              },
            ]}
          />
          <PageLinks
            label="Páginas de cuentas limitadas"
            first={loaderData.restrictedAfter ? href({ desde: loaderData.after }) : null}
            next={loaderData.nextRestricted ? href({ desde: loaderData.after, limitadas: loaderData.nextRestricted }) : null}
          />
        </Section>
      ) : null}
    </Section>
  )
}

/** 'Volver al principio' and 'Siguiente' under a list paged after its last entry (nothing when it fits in one page). */
function PageLinks({ label, first, next }: { label: string; first: string | null; next: string | null }) {
  if (!first && !next) return null
  const LINK_CLASS = 'rounded-md border px-3 py-1.5 hover:bg-accent'
  return (
    <nav aria-label={label} className="flex items-center justify-center gap-3 text-sm">
      {first ? (
        <Link to={first} className={LINK_CLASS}>
          Volver al principio
        </Link>
      ) : null}
      {next ? (
        <Link to={next} className={LINK_CLASS}>
          Siguiente
        </Link>
      ) : null}
    </nav>
  )
}
