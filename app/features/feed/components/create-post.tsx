import { PenLine } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { usePremiumGate } from '~/features/community/components/premium-gate'
import { Button } from '~/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/ui/dialog'
import { lazyPart } from '~/ui/lazy-part'

/** The new-post form and its form library load when the composer first opens. */
export const CreatePostForm = lazyPart(() => import('./create-post-form').then((module) => module.CreatePostForm))

/** The composer: 'Escribe algo...' and 'Nuevo Post' open the dialog (without JavaScript, a page with the form). */
export function Composer({ categories, userName }: { categories: Array<{ id: string; name: string }>; userName: string }) {
  const [open, setOpen] = useState(false)
  const { hasAccess, ask } = usePremiumGate()
  const openComposer = (event: React.MouseEvent) => {
    event.preventDefault()
    if (!hasAccess) return ask()
    setOpen(true)
  }
  return (
    <div className="flex items-center gap-3 rounded-xl border bg-card p-4">
      <Link
        to="/comunidad?nuevo=1"
        preventScrollReset
        onClick={openComposer}
        className="flex-1 rounded-full border bg-muted/60 px-4 py-2.5 text-sm text-muted-foreground hover:bg-muted"
        aria-label={`Escribe algo, ${userName}`}
      >
        Escribe algo...
      </Link>
      <Button asChild>
        <Link to="/comunidad?nuevo=1" onClick={openComposer}>
          <PenLine aria-hidden /> Nuevo Post
        </Link>
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-xl">
          <DialogTitle>Crear post</DialogTitle>
          <DialogDescription>Comparte una idea, un enlace o un documento con la comunidad.</DialogDescription>
          <CreatePostForm categories={categories} onDone={() => setOpen(false)} />
        </DialogContent>
      </Dialog>
    </div>
  )
}
