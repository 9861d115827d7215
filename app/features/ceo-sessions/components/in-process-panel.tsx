import { AlertCircle, CheckCircle2, FileClock, Loader2 } from 'lucide-react'
import { useEffect } from 'react'
import { useRevalidator } from 'react-router'
import { RelativeTime } from '~/ui/relative-time'

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

export function InProcessPanel({ sessions }: { sessions: InProcessSession[] }) {
  const revalidator = useRevalidator()
  const processing = sessions.some((session) => session.publicationStatus === 'processing')
  useEffect(() => {
    if (!processing) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && revalidator.state === 'idle') void revalidator.revalidate()
    }, REFRESH_MS)
    return () => clearInterval(timer)
  }, [processing, revalidator])
  if (!sessions.length) return null
  return (
    <section aria-labelledby="in-process-title" className="rounded-xl border bg-card p-4">
      <h2 id="in-process-title" className="font-semibold">
        Mis sesiones en proceso
      </h2>
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
    </section>
  )
}
