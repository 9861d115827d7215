import { ArrowLeft } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { PremiumPrompt } from '~/features/community/components/premium-prompt'
import { Button } from '~/ui/button'
import { UserAvatar } from '~/ui/user-avatar'
import { MESSAGES } from '../limits'

/**
 * The top of a conversation and of the box for a first message (/mensajes/con/:id): the way back
 * to the list, the other member's avatar and the page's title, then whatever the page adds
 * beside it (the pending badge, 'Bloquear').
 */
export function ConversationHeader({
  other,
  title,
  children,
}: {
  other: { avatarUrl: string | null; name: string }
  title: ReactNode
  children?: ReactNode
}) {
  return (
    <>
      <Button asChild variant="ghost" size="sm" className="justify-self-start">
        <Link to="/mensajes">
          <ArrowLeft aria-hidden /> Mensajes
        </Link>
      </Button>
      <header className="flex flex-wrap items-center gap-3">
        <UserAvatar avatarUrl={other.avatarUrl} name={other.name} className="size-12" />
        {/* Wrapped, never cut: a long name is the one thing the member must read here. */}
        <h1 className="min-w-0 flex-1 break-words text-2xl font-bold tracking-tight">{title}</h1>
        {children}
      </header>
    </>
  )
}

/**
 * Why this member cannot write here, in the order it matters (read-only mode, no premium, the
 * other member's rules), or the composer (`children`) when nothing stops them.
 */
export function WriteGate({
  readOnly,
  premium,
  cannotWrite,
  children,
}: {
  readOnly: { title: string; description: string } | null
  premium: boolean
  cannotWrite: string | null
  children: ReactNode
}) {
  if (readOnly) {
    return (
      <p role="status" className="rounded-md border px-3 py-2 text-sm">
        {readOnly.title} — {readOnly.description}
      </p>
    )
  }
  if (!premium) return <PremiumPrompt description={MESSAGES.premium} />
  if (cannotWrite) {
    return (
      <p role="status" className="rounded-md border px-3 py-2 text-sm text-muted-foreground">
        {cannotWrite}
      </p>
    )
  }
  return <>{children}</>
}
