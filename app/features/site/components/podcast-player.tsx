import { useEffect, useRef, useState } from 'react'
import { Button } from '~/ui/button'
import { press } from '~/features/site/content'
import { cn } from '~/ui/cn'
import { ON_DARK_FOCUS } from './admission-link'
import { Headphones } from './icons'

/**
 * The podcast's third-party player costs nothing until asked for: a button stands in for it
 * and is replaced by the iframe on click (focus moves to the player).
 */
export function PodcastPlayer({ className }: { className?: string }) {
  const { podcast } = press
  const [loaded, setLoaded] = useState(false)
  const frameRef = useRef<HTMLIFrameElement>(null)

  useEffect(() => {
    if (loaded) frameRef.current?.focus()
  }, [loaded])

  return (
    <div className={cn('flex flex-col rounded-xl bg-primary p-6 text-white shadow-sm', className)}>
      <span className="grid size-12 place-items-center rounded-full bg-white/10">
        <Headphones className="size-6 text-amber-300" aria-hidden />
      </span>
      <h3 className="mt-4 text-xl font-semibold">{podcast.title}</h3>
      <p className="mt-2 text-slate-100">{podcast.text}</p>
      <div className="mt-auto pt-6">
        {loaded ? (
          <iframe
            ref={frameRef}
            title={podcast.iframeTitle}
            src={podcast.embedUrl}
            height={podcast.height}
            className="w-full rounded-xl border-0 bg-navy"
            allow="autoplay; clipboard-write; encrypted-media; fullscreen; picture-in-picture"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : (
          <Button
            type="button"
            size="lg"
            variant="gold"
            className={cn('w-full font-semibold sm:w-auto', ON_DARK_FOCUS)}
            onClick={() => setLoaded(true)}
          >
            <Headphones aria-hidden />
            {podcast.button}
          </Button>
        )}
      </div>
    </div>
  )
}
