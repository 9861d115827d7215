/** The top bar's round icon buttons (the bell, the messages link): one size, one focus ring. */
export const TOP_BAR_ICON_CLASS =
  'relative inline-flex size-10 items-center justify-center rounded-full hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring'

/** Spec 000: an unread count on an icon, capped at '9+'; nothing at zero. The button's label says the number. */
export function CountBadge({ count }: { count: number }) {
  if (count <= 0) return null
  return (
    <span
      className="absolute right-0.5 top-0.5 min-w-5 rounded-full bg-destructive px-1 text-center text-[11px] font-bold leading-5 text-white"
      aria-hidden
    >
      {count > 9 ? '9+' : String(count)}
    </span>
  )
}
