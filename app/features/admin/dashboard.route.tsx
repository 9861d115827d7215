import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { requireAdminConsole } from '~/features/account/guards.server'
import { fullDateTime, longDate } from '~/platform/dates'
import { Card, CardContent, CardHeader, CardTitle } from '~/ui/card'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { cn } from '~/ui/cn'
import { formatEuros, formatNumber, formatPercent, Stat } from './components/stat'
import { WeeklyChart } from './components/weekly-chart'
import { loadDashboard } from './dashboard.server'
import { CANCEL_REASONS, type CancelReason } from '~/features/billing/limits'
import { type Period, PERIODS } from './filters'
import type { Route } from './+types/dashboard.route'

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminConsole(request)
  const asked = Number(new URL(request.url).searchParams.get('periodo'))
  const period: Period = PERIODS.find((days) => days === asked) ?? 30
  const dashboard = await loadDashboard(period)
  return {
    ...dashboard,
    // Dates are written here, in the community's zone, so server and browser show the same text.
    money: {
      ...dashboard.money,
      pastDue: dashboard.money.pastDue.map((member) => ({ ...member, periodEnd: member.periodEnd ? longDate(member.periodEnd) : null })),
    },
    content: {
      ...dashboard.content,
      nextEvents: dashboard.content.nextEvents.map((event) => ({ ...event, when: fullDateTime(event.eventDate) })),
    },
    health: { ...dashboard.health, lastDigest: dashboard.health.lastDigest ? fullDateTime(dashboard.health.lastDigest) : null },
  }
}

export function ErrorBoundary() {
  return <PartErrorBoundary failed="No se pudo cargar el panel" />
}

const ACTIVITY = [
  ['active', 'Miembros activos', 'entraron en la comunidad'],
  ['posts', 'Posts', 'publicados'],
  ['comments', 'Comentarios', 'en posts y sesiones'],
  ['likes', 'Likes', 'en posts, comentarios y sesiones'],
  ['views', 'Visualizaciones de sesiones', 'aperturas de una sesión'],
  ['registrations', 'Inscripciones a eventos', 'plazas y lista de espera'],
] as const

export default function DashboardPage({ loaderData: d }: Route.ComponentProps) {
  const periodLabel = `últimos ${d.period} días`
  return (
    <>
      <nav aria-label="Periodo" className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-muted-foreground">Periodo:</span>
        {PERIODS.map((days) => (
          <Link
            key={days}
            to={`/admin?periodo=${days}`}
            aria-current={days === d.period ? 'page' : undefined}
            className={cn(
              'rounded-md border px-3 py-1.5 hover:bg-accent',
              days === d.period && 'border-primary bg-primary text-primary-foreground hover:bg-primary',
            )}
          >
            {days} días
          </Link>
        ))}
      </nav>

      <Block id="members" title="Miembros">
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Stat
            label="Miembros"
            value={formatNumber(d.members.total)}
            hint={`${formatNumber(d.members.newInPeriod)} nuevos en los ${periodLabel}`}
          />
          <Stat label="Perfil completo" value={formatNumber(d.members.complete)} hint="aparecen en el directorio" />
          <Stat label="Premium" value={formatNumber(d.members.premium)} />
          <Stat
            label="Premium por origen"
            value={
              <span className="text-base">{`${d.members.premiumMonthly} · ${d.members.premiumAnnual} · ${d.members.premiumByAdmin}`}</span>
            }
            hint={`Stripe mensual · Stripe anual · concedido por un admin${d.members.premiumOther ? ` (+${d.members.premiumOther} otra suscripción)` : ''}`}
          />
        </dl>
      </Block>

      <Block id="money" title="Ingresos">
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Stat label="Ingresos mensuales (MRR)" value={formatEuros(d.money.mrrCents)} hint="suscripciones activas; la anual cuenta 1/12" />
          <Stat label="Miembros que pagan" value={formatNumber(d.money.paying)} />
          <Stat label="Cancelaciones" value={formatNumber(d.money.cancellations)} hint={`pedidas en los ${periodLabel}`} />
          <Stat
            label="Bajas (churn)"
            value={formatPercent(d.money.churn)}
            hint={`${d.money.ended} de ${d.money.runningAtStart} suscripciones activas al empezar el periodo`}
          />
          <Stat label="Pagos fallidos en reintento" value={formatNumber(d.money.retrying)} hint="Stripe vuelve a intentar el cobro" />
          <Stat
            label="Ingresos perdidos por bajas"
            value={formatEuros(d.money.lostCents)}
            hint={`al mes, de las bajas en los ${periodLabel}`}
          />
          <Stat
            label="Altas con código"
            value={formatPercent(d.money.codeShare)}
            hint={`${d.money.newWithCode} de ${d.money.newSubscriptions} suscripciones nuevas`}
          />
          <Stat label="Reembolsos" value={formatEuros(d.money.refundedCents)} hint={`${d.money.refunds} en los ${periodLabel}`} />
        </dl>
        <TitledCard title="Motivos de baja">
          {d.money.churnReasons.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nadie ha dicho por qué cancela en este periodo.</p>
          ) : (
            <ul className="grid gap-1 text-sm">
              {d.money.churnReasons.map(([reason, count]) => (
                <li key={reason} className="flex justify-between gap-3">
                  <span>{CANCEL_REASONS[reason as CancelReason] ?? reason}</span>
                  <span className="tabular-nums">{formatNumber(count)}</span>
                </li>
              ))}
            </ul>
          )}
        </TitledCard>
        <TitledCard title="En periodo de gracia (pago pendiente)">
          {d.money.pastDue.length === 0 ? (
            <p className="text-sm text-muted-foreground">Ningún pago pendiente.</p>
          ) : (
            <ul className="grid gap-2 text-sm">
              {d.money.pastDue.map((member) => (
                <li key={member.userId} className="flex flex-wrap justify-between gap-x-3">
                  <Link to={`/usuario/${member.userId}`} className="font-medium underline-offset-4 hover:underline">
                    {member.name || member.email}
                  </Link>
                  <span className="text-muted-foreground">{member.periodEnd ? `periodo pagado hasta el ${member.periodEnd}` : ''}</span>
                </li>
              ))}
            </ul>
          )}
        </TitledCard>
      </Block>

      <Block id="activity" title="Actividad">
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {ACTIVITY.map(([key, label, hint]) => (
            <li key={key} className="grid gap-2 rounded-lg border p-3">
              <p className="flex items-baseline justify-between gap-2">
                <span className="text-sm text-muted-foreground">{label}</span>
                <span className="text-2xl font-semibold tabular-nums">{formatNumber(d.activity[key].period)}</span>
              </p>
              <p className="text-xs text-muted-foreground">
                {hint}, {periodLabel}
              </p>
              <WeeklyChart title={label} weeks={d.weeks} values={d.activity[key].weeks} />
            </li>
          ))}
        </ul>
      </Block>

      <Block id="content" title="Contenido">
        <div className="grid gap-3 lg:grid-cols-3">
          <TitledCard title="Sesiones más vistas">
            <RankedList
              empty="Sin visualizaciones en el periodo."
              items={d.content.topSessions.map((s) => ({
                id: s.id,
                href: `/video/${s.id}`,
                title: s.title,
                figure: `${s.views} vistas`,
              }))}
            />
          </TitledCard>
          <TitledCard title="Posts más comentados">
            <RankedList
              empty="Sin comentarios en el periodo."
              items={d.content.topPosts.map((p) => ({
                id: p.id,
                href: `/comunidad?comentarios=${p.id}#post-${p.id}`,
                title: p.title,
                figure: `${p.comments} comentarios`,
              }))}
            />
          </TitledCard>
          <TitledCard title="Próximos eventos">
            <RankedList
              ordered={false}
              empty="No hay eventos programados."
              items={d.content.nextEvents.map((e) => ({
                id: e.id,
                href: `/comunidad/calendario/${e.id}`,
                title: e.title,
                figure: `${e.when} · ${e.capacity ? `${e.taken}/${e.capacity} plazas` : `${e.taken} inscritos`}${e.waitlist ? ` · ${e.waitlist} en espera` : ''}`,
              }))}
            />
          </TitledCard>
        </div>
      </Block>

      <Block id="health" title="Funcionamiento">
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
          <Stat label="Trabajos en cola" value={formatNumber(d.health.queued)} hint={`${d.health.running} en curso`} />
          <Stat
            label="Trabajos fallidos"
            value={formatNumber(d.health.failed)}
            hint={
              <Link to="/admin/trabajos" className="underline underline-offset-4">
                Ver trabajos fallidos
              </Link>
            }
          />
          <Stat label="Correos en espera" value={formatNumber(d.health.mailWaiting)} />
          <Stat label="Último resumen enviado" value={<span className="text-base">{d.health.lastDigest ?? 'Nunca'}</span>} />
        </dl>
      </Block>
    </>
  )
}

function RankedList({
  items,
  empty,
  ordered = true,
}: {
  items: Array<{ id: string; href: string; title: string; figure: string }>
  empty: string
  ordered?: boolean
}) {
  if (items.length === 0) return <p className="text-sm text-muted-foreground">{empty}</p>
  const List = ordered ? 'ol' : 'ul'
  return (
    <List className={cn('grid gap-2 text-sm', ordered && 'list-decimal pl-5')}>
      {items.map((item) => (
        <li key={item.id}>
          <Link to={item.href} className="font-medium underline-offset-4 hover:underline [overflow-wrap:anywhere]">
            {item.title}
          </Link>
          <span className="block text-muted-foreground">{item.figure}</span>
        </li>
      ))}
    </List>
  )
}

function Block({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-3">
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}

function TitledCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  )
}
