import { type FocusEvent, useEffect, useState } from 'react'
import { QUOTE_INTERVAL_MS, quotes } from '~/features/site/content'
import { cn } from '~/ui/cn'
import { Pause, Play, Quote as QuoteIcon } from './icons'
import { usePrefersReducedMotion } from './use-reduced-motion'

/**
 * Four quotes, one every 6 s. Rotation stops while the pointer or the keyboard focus is
 * inside, when the visitor prefers reduced motion, or with the pause button (WCAG 2.2.2).
 * All quotes share one grid cell, so the banner keeps the height of the longest: no layout shift.
 */
export function QuoteBanner() {
  const [active, setActive] = useState(0)
  const [hovered, setHovered] = useState(false)
  const [focused, setFocused] = useState(false)
  const [paused, setPaused] = useState(false)
  const reducedMotion = usePrefersReducedMotion()
  const rotating = !reducedMotion && !paused && !hovered && !focused

  useEffect(() => {
    if (!rotating) return
    const timer = window.setTimeout(() => setActive((current) => (current + 1) % quotes.length), QUOTE_INTERVAL_MS)
    return () => window.clearTimeout(timer)
  }, [rotating, active])

  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false)
  }

  return (
    <section
      aria-roledescription="carrusel"
      aria-label="Lo que dicen CEOs y directivos del sector"
      className="border-b bg-secondary"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={onBlur}
    >
      <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-12 text-center sm:py-14">
        <QuoteIcon className="size-8 text-primary" aria-hidden />
        <div className="mt-4 grid" aria-live={rotating ? 'off' : 'polite'} data-testid="quote-viewport">
          {quotes.map((quote, index) => (
            <figure
              key={quote.author}
              aria-hidden={index !== active}
              data-active={index === active}
              className={cn(
                '[grid-area:1/1] motion-safe:transition-opacity motion-safe:duration-500',
                index === active ? 'visible opacity-100' : 'invisible opacity-0',
              )}
            >
              <blockquote className="text-xl font-medium leading-relaxed text-navy text-balance sm:text-2xl">
                <p>“{quote.text}”</p>
              </blockquote>
              <figcaption className="mt-4 text-sm text-muted-foreground">
                <span className="font-semibold text-foreground">{quote.author}</span> · {quote.role}
              </figcaption>
            </figure>
          ))}
        </div>
        <div className="mt-6 flex items-center gap-2">
          {quotes.map((quote, index) => (
            <button
              key={quote.author}
              type="button"
              aria-label={`Ver cita ${index + 1}`}
              aria-pressed={index === active}
              onClick={() => setActive(index)}
              className="group grid size-6 place-items-center rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span
                aria-hidden
                className={cn(
                  'block h-2.5 rounded-full motion-safe:transition-all',
                  index === active ? 'w-6 bg-primary' : 'w-2.5 bg-slate-400 group-hover:bg-slate-600',
                )}
              />
            </button>
          ))}
          {reducedMotion ? null : (
            <button
              type="button"
              onClick={() => setPaused((value) => !value)}
              aria-label={paused ? 'Reanudar la rotación de citas' : 'Pausar la rotación de citas'}
              className="ml-2 grid size-8 place-items-center rounded-full text-slate-600 hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {paused ? <Play className="size-4" aria-hidden /> : <Pause className="size-4" aria-hidden />}
            </button>
          )}
        </div>
      </div>
    </section>
  )
}
