import { Form, Link } from 'react-router'
import type { AuditAction } from '~/platform/audit/actions'
import { listAuditEntries } from '~/platform/audit/audit.server'
import { requireAdminConsole } from '~/features/account/guards.server'
import { dayRange, fullDateTime } from '~/platform/dates'
import { readQuery, listHref } from '~/platform/http/query'
import { Button } from '~/ui/button'
import { DataTable } from '~/ui/data-table'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { ChoiceField, DayField, FilterButtons, SearchBox } from '~/ui/filter-fields'
import { Section } from '~/ui/section'
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
  billing_paused: 'Cobro pausado',
  billing_resumed: 'Cobro reanudado',
  promotion_code_created: 'Código promocional creado',
  promotion_code_deactivated: 'Código promocional desactivado',
  payment_refunded: 'Pago reembolsado y membresía cancelada',
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const read = readQuery(new URL(request.url).searchParams)
  const filter = {
    quien: read.text('quien'),
    accion: read.choice('accion', ACTION_LABELS),
    desde: read.day('desde'),
    hasta: read.day('hasta'),
  }
  const { entries, nextBeforeId } = await listAuditEntries({
    actorUserIds: filter.quien ? await accountIdsMatching(filter.quien) : null,
    action: filter.accion || null,
    ...dayRange(filter.desde, filter.hasta),
    beforeId: read.positive('antes'),
  })
  return {
    filter,
    nextHref: nextBeforeId ? listHref('/admin/registro', { ...filter, antes: nextBeforeId }) : null,
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
    <Section id="audit" title="Registro de acciones" titleClassName="text-xl font-semibold" className="grid gap-4">
      <Form method="get" action="/admin/registro" role="search" className="grid gap-3 rounded-lg border p-3 sm:grid-cols-2 lg:grid-cols-4">
        <SearchBox id="audit-who" name="quien" label="Quién (nombre o e-mail)" defaultValue={d.filter.quien} />
        <ChoiceField id="audit-action" name="accion" label="Acción" choices={ACTION_LABELS} all="Todas" defaultValue={d.filter.accion} />
        <DayField id="audit-from" name="desde" label="Desde" defaultValue={d.filter.desde} />
        <DayField id="audit-to" name="hasta" label="Hasta" defaultValue={d.filter.hasta} />
        <FilterButtons submit="Filtrar" clearHref="/admin/registro" className="sm:col-span-2 lg:col-span-4" />
      </Form>
      <DataTable
        label="Acciones registradas"
        rows={d.entries}
        rowKey={(entry) => entry.id}
        empty="No hay acciones registradas con estos filtros."
        columns={[
          {
            header: 'Acción',
            cell: (entry) => (
              <>
                <strong>{entry.action}</strong>
                {entry.details ? (
                  <code className="block text-xs text-muted-foreground [overflow-wrap:anywhere]">{entry.details}</code>
                ) : null}
              </>
            ),
          },
          {
            header: 'Quién',
            cell: (entry) => (
              <>
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
              </>
            ),
          },
          { header: 'Cuándo', cell: (entry) => entry.when, className: 'text-muted-foreground md:whitespace-nowrap' },
        ]}
      />
      {d.nextHref ? (
        <Button asChild variant="outline" className="justify-self-center">
          <Link to={d.nextHref}>Ver acciones anteriores</Link>
        </Button>
      ) : null}
    </Section>
  )
}
