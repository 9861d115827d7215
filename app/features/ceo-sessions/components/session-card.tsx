import { Clock, Eye, FileText, Heart, MessageCircle, Pencil, Star, Video } from 'lucide-react'
import { useState } from 'react'
import { type FetcherWithComponents, Link } from 'react-router'
import { RelativeTime } from '~/ui/relative-time'
import type { Result } from '~/platform/http/result'
import { Badge } from '~/ui/badge'
import { ConfirmButton } from '~/ui/confirm-button'
import type { SessionCardView } from '../library.server'
import { CARD_TAGS, formatDuration } from '../limits'
import { SESSIONS_ACTION } from '../paths'

/** A session in the library (spec 001 §2 'Session card'); the whole card opens its page. */
export function SessionCard({
  session,
  progressSeconds,
  remove,
}: {
  session: SessionCardView
  progressSeconds?: number
  /** The library's one delete fetcher: it outlives the card of the session it deletes. */
  remove: FetcherWithComponents<Result>
}) {
  const duration = formatDuration(session.durationMinutes)
  const extraTags = session.tags.length - CARD_TAGS
  return (
    <article className="group relative flex min-w-0 flex-col overflow-hidden rounded-xl border bg-card shadow-sm focus-within:ring-2 focus-within:ring-ring">
      <div className="relative aspect-video bg-muted">
        <Thumbnail url={session.thumbnailUrl} />
        <div className="absolute left-2 top-2 flex flex-wrap gap-1">
          {session.isFeatured ? (
            <Badge variant="premium">
              <Star className="size-3" aria-hidden /> Destacada
            </Badge>
          ) : null}
          {session.hasPdf ? (
            <Badge variant="secondary">
              <FileText className="size-3" aria-hidden /> PDF
            </Badge>
          ) : null}
        </div>
        {duration ? (
          <span className="absolute bottom-2 right-2 inline-flex items-center gap-1 rounded bg-black/75 px-1.5 py-0.5 text-xs font-medium text-white">
            <Clock className="size-3" aria-hidden />
            <span className="sr-only">Duración: </span>
            {duration}
          </span>
        ) : null}
        {progressSeconds && session.durationMinutes ? (
          <div className="absolute inset-x-0 bottom-0 h-1 bg-black/30" aria-hidden>
            <div
              className="h-full bg-primary"
              style={{ width: `${Math.min(100, (progressSeconds / (session.durationMinutes * 60)) * 100)}%` }}
            />
          </div>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h3 className="line-clamp-2 font-semibold leading-snug">
          {/* The link covers the card; the menu below sits above it. */}
          <Link to={`/video/${session.id}`} className="after:absolute after:inset-0 focus-visible:outline-none">
            {session.title}
          </Link>
        </h3>
        <p className="truncate text-sm text-muted-foreground">
          {session.ceoName} · {session.ceoPosition} en {session.ceoCompany}
        </p>
        {session.tags.length ? (
          <ul className="flex flex-wrap gap-1" aria-label="Etiquetas">
            {session.tags.slice(0, CARD_TAGS).map((tag) => (
              <li key={tag}>
                <Badge variant="outline" className="max-w-40 truncate font-normal">
                  {tag}
                </Badge>
              </li>
            ))}
            {extraTags > 0 ? (
              <li>
                <Badge variant="outline" className="font-normal">
                  +{extraTags}
                </Badge>
              </li>
            ) : null}
          </ul>
        ) : null}
        <div className="mt-auto flex flex-wrap items-center gap-x-3 gap-y-1 pt-1 text-xs text-muted-foreground">
          <span className="inline-flex items-center gap-1">
            <Eye className="size-3.5" aria-hidden /> {session.viewCount}
            <span className="sr-only">visualizaciones</span>
          </span>
          <span className="inline-flex items-center gap-1">
            <Heart className="size-3.5" aria-hidden /> {session.likeCount}
            <span className="sr-only">me gusta</span>
          </span>
          <span className="inline-flex items-center gap-1">
            <MessageCircle className="size-3.5" aria-hidden /> {session.commentCount}
            <span className="sr-only">comentarios</span>
          </span>
          <RelativeTime date={session.sessionDate} className="ml-auto" />
        </div>
        {session.canManage ? (
          <div className="relative z-10 flex gap-1 border-t pt-2 text-xs">
            <Link
              to={`/comunidad/sesiones?editar=${session.id}`}
              preventScrollReset
              className="inline-flex items-center gap-1 rounded px-2 py-1 hover:bg-accent"
            >
              <Pencil className="size-3.5" aria-hidden /> Editar
              <span className="sr-only">«{session.title}»</span>
            </Link>
            <ConfirmButton
              fetcher={remove}
              fields={{ intent: 'delete-session', sessionId: session.id }}
              action={SESSIONS_ACTION}
              question="¿Estás seguro de que quieres eliminar esta sesión?"
              compact
            />
          </div>
        ) : null}
      </div>
    </article>
  )
}

/** The session's picture, or the spec's fallback icon when there is none or it fails to load. */
function Thumbnail({ url }: { url: string | null }) {
  const [failed, setFailed] = useState(false)
  if (!url || failed) {
    return (
      <div className="flex size-full items-center justify-center text-muted-foreground">
        <Video className="size-10" aria-hidden />
      </div>
    )
  }
  return <img src={url} alt="" loading="lazy" decoding="async" className="size-full object-cover" onError={() => setFailed(true)} />
}
