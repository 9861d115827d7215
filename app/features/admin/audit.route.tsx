import { Form, Link } from 'react-router'
import { AUDIT_ACTIONS, type AuditAction } from '~/platform/audit/actions'
import { listAuditEntries } from '~/platform/audit/audit.server'
import { requireAdminConsole } from '~/features/account/guards.server'
import { DEFAULT_TIME_ZONE, fromWallTime, fullDateTime } from '~/platform/dates'
import { Button } from '~/ui/button'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { Input, SELECT_CLASS } from '~/ui/input'
import { Label } from '~/ui/label'
import { DayField, FilterButtons } from './components/filter-fields'
import { addDays } from './dashboard.server'
import { accountIdsMatching } from './members.server'
import type { Route } from './+types/audit.route'

export const ACTION_LABELS: Record<AuditAction, string> = {
  sign_in_failed: 'Inicio de sesión fallido',
  role_granted: 'Rol asignado',
  role_removed: 'Rol retirado',
  premium_granted: 'Premium activado',
  premium_removed: 'Premium retirado',
  avatar_rejected: 'Foto rechazada',
  settings_changed: 'Ajustes cambiados',
  members_exported: 'Miembros exportados',
  job_retried: 'Trabajo reintentado',
  job_discarded: 'Trabajo descartado',
  post_deleted: 'Post de otro miembro eliminado',
  comment_deleted: 'Comentario de otro miembro eliminado',
  session_deleted: 'Sesión eliminada',
  event_deleted: 'Evento eliminado',
  admission_approved: 'Solicitud de admisión aprobada',
  admission_rejected: 'Solicitud de admisión rechazada',
  admission_waitlisted: 'Solicitud de admisión en lista de espera',
  admission_info_requested: 'Más información pedida a un candidato',
  two_factor_enabled: 'Verificación en dos pasos activada',
  two_factor_disabled: 'Verificación en dos pasos desactivada',
  recovery_code_used: 'Código de recuperación usado',
  account_deleted: 'Cuenta eliminada',
  passkey_added: 'Llave de acceso añadida',
  passkey_removed: 'Llave de acceso eliminada',
  content_hidden: 'Contenido ocultado por moderación',
  content_deleted: 'Contenido eliminado por moderación',
  report_dismissed: 'Informe descartado',
  content_restored: 'Contenido visible de nuevo',
  member_warned: 'Aviso de moderación a un miembro',
  member_suspended: 'Miembro suspendido (modo lectura)',
  member_banned: 'Miembro expulsado',
  member_reinstated: 'Suspensión o expulsión levantada',
  member_data_exported: 'Datos de un miembro exportados a petición suya',
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const params = new URL(request.url).searchParams
  const who = (params.get('quien') ?? '').slice(0, 100).trim()
  const askedAction = params.get('accion') ?? ''
  const action = (AUDIT_ACTIONS as readonly string[]).includes(askedAction) ? (askedAction as AuditAction) : null
  const day = (name: string) => {
    const value = params.get(name) ?? ''
    return DAY.test(value) && fromWallTime(`${value}T00:00`) ? value : ''
  }
  const from = day('desde')
  const to = day('hasta')
  const before = Number.parseInt(params.get('antes') ?? '', 10)
  const { entries, nextBeforeId } = await listAuditEntries({
    actorUserIds: who ? await accountIdsMatching(who) : null,
    action,
    from: from ? fromWallTime(`${from}T00:00`, DEFAULT_TIME_ZONE) : null,
    to: to ? fromWallTime(`${addDays(to, 1)}T00:00`, DEFAULT_TIME_ZONE) : null,
    beforeId: Number.isSafeInteger(before) && before > 0 ? before : null,
  })
  const filter = { quien: who, accion: action ?? '', desde: from, hasta: to }
  const next = new URLSearchParams(Object.entries(filter).filter(([, value]) => value))
  if (nextBeforeId) next.set('antes', String(nextBeforeId))
  return {
    filter,
    nextHref: nextBeforeId ? `/admin/registro?${next}` : null,
    entries: entries.map((entry) => ({
      id: entry.id,
      when: fullDateTime(entry.createdAt),
      action: ACTION_LABELS[entry.action as AuditAction] ?? entry.action,
      actor: entry.actorUserId ? { id: entry.actorUserId, name: entry.actorName ?? entry.actorEmail ?? 'Cuenta eliminada' } : null,
      target: entry.targetUserId ? { id: entry.targetUserId, name: entry.targetName ?? entry.targetEmail ?? 'Cuenta eliminada' } : null,
      details: entry.details && Object.keys(entry.details).length ? JSON.stringify(entry.details) : null,
      ipAddress: entry.ipAddress,
    })),
  }
}

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudo cargar el registro" />
}

export default function AuditPage({ loaderData: d }: Route.ComponentProps) {
  return (
    <section aria-labelledby="audit-title" className="grid gap-4">
      <h2 id="audit-title" className="text-xl font-semibold">
        Registro de acciones
      </h2>
      <Form method="get" action="/admin/registro" role="search" className="grid gap-3 rounded-lg border p-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="audit-who">Quién (nombre o e-mail)</Label>
          <Input id="audit-who" name="quien" type="search" defaultValue={d.filter.quien} maxLength={100} />
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="audit-action">Acción</Label>
          <select id="audit-action" name="accion" defaultValue={d.filter.accion} className={`${SELECT_CLASS} min-w-0`}>
            <option value="">Todas</option>
            {AUDIT_ACTIONS.map((action) => (
              <option key={action} value={action}>
                {ACTION_LABELS[action]}
              </option>
            ))}
          </select>
        </div>
        <DayField id="audit-from" name="desde" label="Desde" defaultValue={d.filter.desde} />
        <DayField id="audit-to" name="hasta" label="Hasta" defaultValue={d.filter.hasta} />
        <FilterButtons submit="Filtrar" clearHref="/admin/registro" className="sm:col-span-2 lg:col-span-4" />
      </Form>
      {d.entries.length === 0 ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-muted-foreground">
          No hay acciones registradas con estos filtros.
        </p>
      ) : (
        <ol className="grid gap-2">
          {d.entries.map((entry) => (
            <li key={entry.id} className="grid gap-1 rounded-lg border p-3 text-sm">
              <p className="flex flex-wrap justify-between gap-x-3">
                <strong>{entry.action}</strong>
                <span className="text-muted-foreground">{entry.when}</span>
              </p>
              <p>
                {entry.actor ? (
                  <>
                    Por{' '}
                    <Link to={`/usuario/${entry.actor.id}`} className="underline underline-offset-4">
                      {entry.actor.name}
                    </Link>
                  </>
                ) : (
                  'Por el sistema'
                )}
                {entry.target ? (
                  <>
                    {' '}
                    · a{' '}
                    <Link to={`/usuario/${entry.target.id}`} className="underline underline-offset-4">
                      {entry.target.name}
                    </Link>
                  </>
                ) : null}
                {entry.ipAddress ? <span className="text-muted-foreground"> · IP {entry.ipAddress}</span> : null}
              </p>
              {entry.details ? <code className="block text-xs text-muted-foreground [overflow-wrap:anywhere]">{entry.details}</code> : null}
            </li>
          ))}
        </ol>
      )}
      {d.nextHref ? (
        <Button asChild variant="outline" className="justify-self-center">
          <Link to={d.nextHref}>Ver acciones anteriores</Link>
        </Button>
      ) : null}
    </section>
  )
}
