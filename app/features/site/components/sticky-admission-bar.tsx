import { useEffect, useState } from 'react'
import { useRouteLoaderData } from 'react-router'
import { stickyBar } from '~/features/site/content'
import { useAdmission } from './use-admission'
import { cn } from '~/ui/cn'
import { AdmissionLink } from './admission-link'

type RootData = { user: { isPremium: boolean } | null } | undefined

export interface Remaining {
  days: number
  hours: number
  minutes: number
  seconds: number
}

/** Time left until `target`, never below zero. */
export function remainingUntil(target: number, now: number): Remaining {
  const total = Math.max(0, Math.floor((target - now) / 1000))
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3_600),
    minutes: Math.floor((total % 3_600) / 60),
    seconds: total % 60,
  }
}

function useCountdown(launchAt: string) {
  // Nothing on the server and in the first client render: the clocks differ (no hydration mismatch).
  const [remaining, setRemaining] = useState<Remaining | null>(null)
  useEffect(() => {
    // The date has no offset, so `new Date` reads it in the visitor's local time.
    const target = new Date(launchAt).getTime()
    const tick = () => setRemaining(remainingUntil(target, Date.now()))
    tick()
    const timer = window.setInterval(tick, 1000)
    return () => window.clearInterval(timer)
  }, [launchAt])
  return remaining
}

/**
 * Bottom bar with the launch countdown and the admission button, shown once the visitor has
 * scrolled past 80% of the viewport; never to premium members.
 */
export function StickyAdmissionBar() {
  const root = useRouteLoaderData('root') as RootData
  const admission = useAdmission()
  const eligible = !root?.user?.isPremium
  const [visible, setVisible] = useState(false)

  useEffect(() => {
    if (!eligible) return
    const update = () => setVisible(window.scrollY > window.innerHeight * stickyBar.showAfterViewportShare)
    update()
    window.addEventListener('scroll', update, { passive: true })
    window.addEventListener('resize', update)
    return () => {
      window.removeEventListener('scroll', update)
      window.removeEventListener('resize', update)
    }
  }, [eligible])

  if (!eligible) return null
  return (
    <div
      data-testid="sticky-admission-bar"
      data-visible={visible}
      className={cn(
        'fixed inset-x-0 bottom-0 z-30 border-t border-white/10 bg-navy text-white shadow-[0_-8px_24px_rgba(0,0,0,0.25)] motion-safe:transition-[transform,visibility] motion-safe:duration-300',
        visible ? 'visible translate-y-0' : 'invisible translate-y-full',
      )}
    >
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
        <Countdown launchAt={admission.launchAt} />
        <AdmissionLink onDark size="default" className="shrink-0 px-3 sm:px-5">
          {stickyBar.cta}
        </AdmissionLink>
      </div>
    </div>
  )
}

function Countdown({ launchAt }: { launchAt: string }) {
  const remaining = useCountdown(launchAt)
  if (remaining && remaining.days + remaining.hours + remaining.minutes + remaining.seconds === 0) {
    return (
      <div className="flex min-w-0 flex-col sm:flex-row sm:items-center sm:gap-3" data-testid="admission-open">
        <p className="whitespace-nowrap text-xs font-semibold text-amber-300 sm:text-sm sm:uppercase sm:tracking-wider">
          {stickyBar.openLabel}
        </p>
        <p className="text-sm text-slate-200">{stickyBar.openText}</p>
      </div>
    )
  }
  return (
    <div role="timer" aria-label={stickyBar.label} className="flex min-w-0 flex-col sm:flex-row sm:items-center sm:gap-3">
      <p className="whitespace-nowrap text-xs font-semibold text-amber-300 sm:text-sm sm:uppercase sm:tracking-wider">{stickyBar.label}</p>
      <p className="flex gap-1.5 whitespace-nowrap font-mono text-sm tabular-nums sm:gap-3 sm:text-base" data-testid="countdown">
        {stickyBar.units.map((unit) => {
          const value = remaining ? remaining[unit.key] : null
          return (
            <span key={unit.key} data-unit={unit.key} data-value={value ?? ''} className="whitespace-nowrap">
              <span className="font-bold">{value === null ? '--' : String(value).padStart(2, '0')}</span>
              <span aria-hidden className="text-slate-300">
                {unit.short}
              </span>
              <span className="sr-only"> {unit.long}</span>
            </span>
          )
        })}
      </p>
    </div>
  )
}
