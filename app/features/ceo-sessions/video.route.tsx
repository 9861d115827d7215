import { ArrowLeft, Calendar, Clock, Eye, FileText, Pencil, Share2, Star } from 'lucide-react'
import { isRouteErrorResponse, Link, type ShouldRevalidateFunctionArgs, useRouteError } from 'react-router'
import { z } from 'zod'
import { site } from '~/site.config'
import { CommentsPanel } from '~/features/community/comments/comments-panel'
import { LikeButton } from '~/features/community/comments/like-button'
import type { CommentThread } from '~/features/community/comments/types'
import { PremiumGateProvider } from '~/features/community/components/premium-gate'
import { PremiumPrompt } from '~/features/community/components/premium-prompt'
import { requireCompleteProfile } from '~/features/account/guards.server'
import { can } from '~/platform/auth/capabilities'
import { fullDateTime, longDate, relativeTime } from '~/platform/dates'
import { guardedAction, refuse } from '~/platform/http/responses.server'
import { signedUploadUrl } from '~/platform/storage/signed-url.server'
import { ActionStatus } from '~/ui/action-status'
import { Badge } from '~/ui/badge'
import { PartErrorBoundary } from '~/ui/error-boundary'
import { showToast } from '~/ui/toast'
import { sessionAction } from './ceo-sessions.server'
import { VideoPlayer } from './components/video-player'
import { getSessionPage, recordView } from './library.server'
import { formatDuration, SESSION_MESSAGES } from './limits'
import { videoPath } from './paths'
import { getVideoProvider } from './video-provider.server'
import type { Route } from './+types/video.route'
import { withBell } from '~/features/notifications/components/notification-bell'

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.session.title ?? 'Video'} · ${site.name}` },
  { name: 'robots', content: 'noindex' },
]

export const handle = withBell

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requireCompleteProfile(request)
  const sessionId = z.uuid().safeParse(params.sessionId)
  if (!sessionId.success) refuse(404, SESSION_MESSAGES.notFound)
  const row = await getSessionPage(sessionId.data, user.id)
  const canManage = Boolean(row) && (row!.createdBy === user.id || can(user, 'manage-sessions'))
  // A session not yet published is its creator's and the admins' only.
  if (!row || (row.publicationStatus !== 'published' && !canManage)) refuse(404, SESSION_MESSAGES.notFound)
  const published = row.publicationStatus === 'published'
  // Spec 001 §4: each opening counts once, in one UPDATE. Only members who can watch count.
  const viewCount = user.hasAccess && published ? ((await recordView(row.id)) ?? row.viewCount) : row.viewCount
  // No playable address for a member without access: the promo stands where the video would.
  const playback = user.hasAccess ? await (await getVideoProvider()).playback(row) : null
  return {
    hasAccess: user.hasAccess,
    canManage,
    published,
    session: {
      id: row.id,
      title: row.title,
      summary: row.summary,
      description: row.description,
      ceoName: row.ceoName,
      ceoPosition: row.ceoPosition,
      ceoCompany: row.ceoCompany,
      sessionDate: row.sessionDate.toISOString(),
      publishedAt: (row.publishedAt ?? row.sessionDate).toISOString(),
      durationMinutes: row.durationMinutes,
      tags: row.tags,
      isFeatured: row.isFeatured,
      viewCount,
      likeCount: row.likeCount,
      commentCount: row.commentCount,
      likedByMe: row.likedByMe,
    },
    player:
      playback && user.hasAccess
        ? {
            src: playback.src,
            type: playback.type,
            poster: row.thumbnailKey ? signedUploadUrl(row.thumbnailKey, 'miniatura.webp') : (playback.posterUrl ?? null),
            captionsUrl: row.captionsKey ? signedUploadUrl(row.captionsKey, 'subtitulos.vtt') : null,
            startAt: row.positionSeconds,
          }
        : null,
    pdfUrl: user.hasAccess && row.pdfKey ? signedUploadUrl(row.pdfKey, row.pdfName ?? 'documento.pdf') : null,
  }
}

export const action = guardedAction(requireCompleteProfile, sessionAction)

/**
 * Likes, comments and the saved position answer in place; reloading the page would count
 * another view and mint a new playback address for nothing.
 */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData ? false : defaultShouldRevalidate
}

export default function VideoPage({ loaderData, actionData }: Route.ComponentProps) {
  const { session, player, pdfUrl, hasAccess } = loaderData
  const duration = formatDuration(session.durationMinutes)
  const thread: CommentThread = {
    action: videoPath(session.id),
    field: 'sessionId',
    id: session.id,
    url: `${videoPath(session.id)}/comentarios`,
    likes: false,
  }
  return (
    <PremiumGateProvider hasAccess={hasAccess}>
      <div className="mx-auto grid w-full max-w-5xl gap-5 px-4 py-8">
        <BackLink />
        <ActionStatus result={actionData} />
        {player ? (
          <VideoPlayer sessionId={session.id} title={session.title} {...player} />
        ) : hasAccess ? (
          <p
            role="status"
            className="flex aspect-video items-center justify-center rounded-xl bg-muted p-6 text-center text-muted-foreground"
          >
            {loaderData.published ? 'No se pudo cargar el video' : 'El video se está procesando. Estará disponible cuando termine.'}
          </p>
        ) : (
          <PremiumPrompt description="Las sesiones grabadas con CEOs son parte de la membresía premium. Solicita tu admisión para verlas." />
        )}
        <header className="grid gap-2">
          <div className="flex flex-wrap items-start gap-2">
            <h1 className="mr-auto min-w-0 break-words text-2xl font-bold tracking-tight sm:text-3xl">{session.title}</h1>
            {session.isFeatured ? (
              <Badge variant="premium">
                <Star className="size-3" aria-hidden /> Destacada
              </Badge>
            ) : null}
          </div>
          <p className="text-lg">
            <span className="font-semibold">{session.ceoName}</span>
            <span className="text-muted-foreground">
              {' '}
              · {session.ceoPosition} en {session.ceoCompany}
            </span>
          </p>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <li className="inline-flex items-center gap-1">
              <Eye className="size-4" aria-hidden /> {session.viewCount} {session.viewCount === 1 ? 'visualización' : 'visualizaciones'}
            </li>
            <li className="inline-flex items-center gap-1">
              <Calendar className="size-4" aria-hidden />
              <time dateTime={session.sessionDate} title={fullDateTime(session.sessionDate)}>
                {longDate(session.sessionDate)}
              </time>
            </li>
            {duration ? (
              <li className="inline-flex items-center gap-1">
                <Clock className="size-4" aria-hidden /> {duration}
              </li>
            ) : null}
            <li>
              Publicada{' '}
              <time dateTime={session.publishedAt} suppressHydrationWarning>
                {relativeTime(session.publishedAt)}
              </time>
            </li>
          </ul>
        </header>
        <div className="flex flex-wrap items-center gap-2 border-y py-2">
          <LikeButton
            action={videoPath(session.id)}
            intent="like-session"
            field="sessionId"
            id={session.id}
            liked={session.likedByMe}
            count={session.likeCount}
          />
          <ShareButton title={session.title} />
          {pdfUrl ? (
            <a href={pdfUrl} download className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm hover:bg-accent">
              <FileText className="size-4" aria-hidden /> Ver PDF
            </a>
          ) : null}
          {loaderData.canManage ? (
            <Link
              to={`/comunidad?edit=${session.id}`}
              className="ml-auto inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm hover:bg-accent"
            >
              <Pencil className="size-4" aria-hidden /> Editar
            </Link>
          ) : null}
        </div>
        <section aria-labelledby="about-title" className="grid gap-3">
          <h2 id="about-title" className="sr-only">
            Sobre la sesión
          </h2>
          <p className="font-medium">{session.summary}</p>
          <p className="whitespace-pre-line break-words text-muted-foreground">{session.description}</p>
          {session.tags.length ? (
            <ul className="flex flex-wrap gap-1.5" aria-label="Etiquetas">
              {session.tags.map((tag) => (
                <li key={tag}>
                  <Link to={`/comunidad/sesiones?${new URLSearchParams({ buscar: tag })}`}>
                    <Badge variant="outline" className="font-normal hover:bg-accent">
                      {tag}
                    </Badge>
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </section>
        {hasAccess && loaderData.published ? (
          <section id="comentarios" aria-labelledby="comments-title" className="grid gap-2 rounded-xl border bg-card p-4">
            <h2 id="comments-title" className="font-semibold">
              Comentarios
            </h2>
            <CommentsPanel thread={thread} />
          </section>
        ) : null}
      </div>
    </PremiumGateProvider>
  )
}

/** Spec 001 §2: the way back from the video page. */
function BackLink() {
  return (
    <Link
      to="/comunidad/sesiones"
      className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft className="size-4" aria-hidden /> Volver a la comunidad
    </Link>
  )
}

/** The system's share sheet where there is one (phones), else the link copied. */
function ShareButton({ title }: { title: string }) {
  async function share() {
    const url = window.location.href.split('#')[0]!
    if (navigator.share) {
      await navigator.share({ title, url }).catch(() => {})
      return
    }
    try {
      await navigator.clipboard.writeText(url)
      showToast({ title: 'Enlace copiado', description: 'Compártelo con otros miembros de la comunidad.' })
    } catch {
      showToast({ title: 'No se pudo copiar el enlace', description: url }, 'error')
    }
  }
  return (
    <button
      type="button"
      onClick={() => void share()}
      className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 text-sm hover:bg-accent"
    >
      <Share2 className="size-4" aria-hidden /> Compartir
    </button>
  )
}

/** 'Video no encontrado' keeps the way back (spec 001 §2). */
export function ErrorBoundary() {
  const error = useRouteError()
  if (!isRouteErrorResponse(error) || error.status !== 404) {
    return (
      <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
        <BackLink />
        <PartErrorBoundary failed={SESSION_MESSAGES.videoFailed} />
      </div>
    )
  }
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6 px-4 py-10">
      <BackLink />
      <div className="rounded-xl border bg-card p-8 text-center">
        <h1 className="text-2xl font-bold">Video no encontrado</h1>
        <p className="mt-2 text-muted-foreground">Es posible que la sesión se haya eliminado o que el enlace sea incorrecto.</p>
      </div>
    </div>
  )
}
