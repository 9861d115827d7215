import { Loader2 } from 'lucide-react'

/** While a comment list loads (its code or its comments). */
export function CommentsLoading() {
  return (
    <p className="flex items-center gap-2 py-3 text-sm text-muted-foreground" role="status">
      <Loader2 className="size-4 animate-spin" aria-hidden /> Cargando comentarios...
    </p>
  )
}
