import { Loader2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { videoPath } from '../paths'

/** How often the position is saved while playing ('Continuar viendo'). */
const SAVE_EVERY_SECONDS = 15

/**
 * The browser's own player (keyboard and screen-reader accessible, captions menu included) on a
 * short-lived address. Mux's HLS plays natively where the browser can, else through hls.js,
 * loaded only then. The member's position is saved as they watch and restored on return.
 */
export function VideoPlayer({
  sessionId,
  title,
  src,
  type,
  poster,
  captionsUrl,
  startAt,
}: {
  sessionId: string
  title: string
  src: string
  type: string
  poster: string | null
  captionsUrl: string | null
  startAt: number | null
}) {
  const videoRef = useRef<HTMLVideoElement>(null)
  const progress = useFetcher()
  const [loading, setLoading] = useState(true)
  const [failed, setFailed] = useState(false)
  const lastSaved = useRef(startAt ?? 0)
  const isHls = type === 'application/x-mpegURL'

  useEffect(() => {
    const video = videoRef.current
    if (!video || !isHls || video.canPlayType('application/vnd.apple.mpegurl')) return
    let destroy: (() => void) | undefined
    void import('hls.js').then(({ default: Hls }) => {
      if (!Hls.isSupported()) return setFailed(true)
      // No worker: the page's CSP allows no blob: scripts.
      const hls = new Hls({ enableWorker: false })
      hls.on(Hls.Events.ERROR, (_event, data) => data.fatal && setFailed(true))
      hls.loadSource(src)
      hls.attachMedia(video)
      destroy = () => hls.destroy()
    })
    return () => destroy?.()
  }, [isHls, src])

  const save = (seconds: number) => {
    const position = Math.floor(seconds)
    if (Math.abs(position - lastSaved.current) < SAVE_EVERY_SECONDS && position !== 0) return
    lastSaved.current = position
    void progress.submit(
      { intent: 'save-progress', sessionId, positionSeconds: String(position) },
      { method: 'post', action: videoPath(sessionId) },
    )
  }

  return (
    <div className="relative overflow-hidden rounded-xl bg-black">
      {/* The captions track is there whenever the session has a VTT file; not every recording has one. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
      <video
        ref={videoRef}
        controls
        playsInline
        preload="metadata"
        poster={poster ?? undefined}
        aria-label={`Video: ${title}`}
        className="aspect-video w-full"
        src={isHls ? undefined : src}
        onLoadedMetadata={(event) => {
          setLoading(false)
          const video = event.currentTarget
          // Back where the member left it, unless that was the very end.
          if (startAt && startAt < video.duration - 10) video.currentTime = startAt
        }}
        onError={() => setFailed(true)}
        onTimeUpdate={(event) => save(event.currentTarget.currentTime)}
        onPause={(event) => save(event.currentTarget.currentTime)}
        onEnded={() => save(0)}
      >
        {captionsUrl ? <track kind="captions" src={captionsUrl} srcLang="es" label="Español" /> : null}
        Tu navegador no puede reproducir este video.
      </video>
      {failed ? (
        <p role="alert" className="absolute inset-x-0 top-0 bg-destructive px-3 py-2 text-sm text-destructive-foreground">
          No se pudo cargar el video
        </p>
      ) : loading ? (
        <p role="status" className="pointer-events-none absolute inset-0 flex items-center justify-center gap-2 text-sm text-white">
          <Loader2 className="size-5 animate-spin" aria-hidden /> Cargando video...
        </p>
      ) : null}
    </div>
  )
}
