import { cn } from './cn'

/**
 * The profile picture, or the first letter of the name when there is none (the spec's first
 * letter of the e-mail, for a member who has not given a name: pass the e-mail as the name).
 */
export function UserAvatar({ avatarUrl, name, className }: { avatarUrl?: string | null; name: string; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-primary text-sm font-semibold uppercase text-primary-foreground',
        className,
      )}
    >
      {avatarUrl ? (
        <img src={avatarUrl} alt={`Foto de ${name}`} className="size-full object-cover" />
      ) : (
        <span aria-hidden>{name.trim().charAt(0) || '?'}</span>
      )}
    </span>
  )
}
