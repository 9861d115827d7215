import { cn } from '~/utils/cn'

/** The profile picture, or the first letter of the e-mail when there is none (spec). */
export function UserAvatar({
  avatarUrl,
  email,
  name,
  className,
}: {
  avatarUrl?: string | null
  email: string
  name: string
  className?: string
}) {
  return (
    <span
      className={cn(
        'inline-flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary text-sm font-semibold uppercase text-primary-foreground',
        className,
      )}
    >
      {avatarUrl ? <img src={avatarUrl} alt={`Foto de ${name}`} className="size-full object-cover" /> : <span aria-hidden>{email.charAt(0)}</span>}
    </span>
  )
}
