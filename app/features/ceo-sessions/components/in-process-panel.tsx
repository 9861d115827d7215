import { AlertCircle, CheckCircle2, FileClock, Loader2 } from 'lucide-react'
import { useEffect, useEffectEvent, useRef } from 'react'
import { useFetcher, useRevalidator } from 'react-router'
import type { Result } from '~/platform/http/result'
import { RelativeTime } from '~/ui/relative-time'
import { Section } from '~/ui/section'

export interface InProcessSession {
  id: string
  title: string
  publicationStatus: 'draft' | 'processing' | 'published' | 'failed'
  createdAt: string
}

/** Spec 001 §4's labels, one per publication status. */
const STATUS = {
  processing: { label: 'Procesando video...', icon: Loader2, className: 'text-sky-800', spin: true },
  draft: { label: 'En borrador', icon: FileClock, className: 'text-muted-foreground', spin: false },
  published: { label: 'Publicada', icon: CheckCircle2, className: 'text-emerald-800', spin: false },
  failed: { label: 'Error en el procesamiento', icon: AlertCircle, className: 'text-destructive', spin: false },
} as const

/** Spec 001 §4: the panel looks again every 10 s while a video is processing (only our own server). */
const REFRESH_MS = 10_000

export function InProcessPanel({ sessions: loaded }: { sessions: InProcessSession[] }) {
  // The poll has its own part route: a poll that fails keeps what the panel showed.
  const poll = useFetcher<Result<{ sessions: InProcessSession[] }>>()
  const revalidator = useRevalidator()
  const sessions = poll.data?.ok ? poll.data.sessions : loaded
  const processing = sessions.some((session) => session.publicationStatus === 'processing')
  useEffect(() => {
    if (!processing) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && poll.state === 'idle') void poll.load('/comunidad/sesiones/en-proceso')
    }, REFRESH_MS)
    return () => clearInterval(timer)
  }, [processing, poll])
  // A video that finished processing (published, or failed) changes the library: load the tab once.
  const wasProcessing = useRef(new Set(loaded.filter((session) => session.publicationStatus === 'processing').map((session) => session.id)))
  const onPolled = useEffectEvent((polled: InProcessSession[]) => {
    const finished = polled.some((session) => wasProcessing.current.has(session.id) && session.publicationStatus !== 'processing')
    wasProcessing.current = new Set(polled.filter((session) => session.publicationStatus === 'processing').map((session) => session.id))
    if (finished && revalidator.state === 'idle') void revalidator.revalidate()
  })
  useEffect(() => {
    if (poll.data?.ok) onPolled(poll.data.sessions)
  }, [poll.data])
  if (!sessions.length) return null
  return (
    <Section id="in-process" title="Mis sesiones en proceso" titleClassName="font-semibold" className="rounded-xl border bg-card p-4">
      <ul className="mt-2 divide-y">
        {sessions.map((session) => {
          const status = STATUS[session.publicationStatus]
          return (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm">
              <span className="min-w-0 flex-1">
                <a href={`/video/${session.id}`} className="font-medium hover:underline">
                  {session.title}
                </a>{' '}
                <RelativeTime date={session.createdAt} className="text-xs text-muted-foreground" />
              </span>
              <span className={`inline-flex items-center gap-1.5 font-medium ${status.className}`} data-status={session.publicationStatus}>
                <status.icon className={status.spin ? 'size-4 animate-spin motion-reduce:animate-none' : 'size-4'} aria-hidden />
                {status.label}
              </span>
            </li>
          )
        })}
      </ul>
    </Section>
  )
}
