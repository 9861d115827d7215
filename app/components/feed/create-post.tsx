import { FileText, Link2, Paperclip, PenLine, Type } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { toast } from 'sonner'
import { Button } from '~/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/components/ui/dialog'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { ATTACHMENT_ERRORS, ATTACHMENT_LIMITS, POST_CONTENT_MAX, POST_TITLE_MAX } from '~/utils/community-schemas'
import { usePremiumGate } from './premium-required-dialog'
import type { FeedActionData } from './types'
import { useHydrated } from '~/utils/use-hydrated'

const ACCEPT = 'image/png,image/jpeg,image/webp,image/gif,application/pdf,.pdf,.doc,.docx,.txt,text/plain'
const POST_TYPES = [
  { value: 'text', label: 'Texto', icon: Type },
  { value: 'link', label: 'Enlace', icon: Link2 },
  { value: 'document', label: 'Documento', icon: FileText },
] as const

function checkFiles(files: File[]) {
  if (files.length > ATTACHMENT_LIMITS.maxFiles) return ATTACHMENT_ERRORS.count
  if (files.some((file) => file.size > ATTACHMENT_LIMITS.maxFileBytes)) return ATTACHMENT_ERRORS.fileSize
  if (files.reduce((sum, file) => sum + file.size, 0) > ATTACHMENT_LIMITS.maxTotalBytes) return ATTACHMENT_ERRORS.total
  if (files.some((file) => !/\.(png|jpe?g|webp|gif|pdf|docx?|txt)$/i.test(file.name))) return ATTACHMENT_ERRORS.type
  return null
}

export function CreatePostForm({
  categories,
  onDone,
}: {
  categories: Array<{ id: string; name: string }>
  onDone?: () => void
}) {
  const fetcher = useFetcher<FeedActionData>()
  const formRef = useRef<HTMLFormElement>(null)
  const id = useId()
  const [postType, setPostType] = useState<'text' | 'link' | 'document'>('text')
  const [title, setTitle] = useState('')
  const hydrated = useHydrated()
  const [fileError, setFileError] = useState<string | null>(null)
  const sending = fetcher.state !== 'idle'
  const result = fetcher.data
  const errors = result && !result.ok ? result.fieldErrors : undefined

  const handled = useRef<FeedActionData | undefined>(undefined)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !result || handled.current === result) return
    handled.current = result
    if (result.ok) {
      toast.success(result.title, { description: result.description })
      formRef.current?.reset()
      setTitle('')
      setPostType('text')
      onDone?.()
    } else {
      toast.error(result.title, { description: result.description })
    }
  }, [fetcher.state, result, onDone])

  return (
    <fetcher.Form
      ref={formRef}
      method="post"
      action="/comunidad"
      encType="multipart/form-data"
      className="grid gap-4"
      onSubmit={(event) => {
        const input = event.currentTarget.elements.namedItem('attachments') as HTMLInputElement | null
        const problem = checkFiles([...(input?.files ?? [])])
        if (problem) {
          event.preventDefault()
          setFileError(problem)
        }
      }}
    >
      <input type="hidden" name="intent" value="create-post" />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Tipo de post</legend>
        <div className="grid grid-cols-3 gap-2">
          {POST_TYPES.map(({ value, label, icon: Icon }) => (
            <label
              key={value}
              className="flex cursor-pointer items-center justify-center gap-2 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
            >
              <input
                type="radio"
                name="postType"
                value={value}
                checked={postType === value}
                onChange={() => setPostType(value)}
                className="sr-only"
              />
              <Icon className="size-4" aria-hidden /> {label}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-title`}>Título</Label>
        <Input
          id={`${id}-title`}
          name="title"
          required
          maxLength={POST_TITLE_MAX}
          value={title}
          onChange={(event) => setTitle(event.currentTarget.value)}
          aria-invalid={errors?.title ? true : undefined}
          aria-describedby={errors?.title ? `${id}-title-error` : undefined}
        />
        {errors?.title ? (
          <p id={`${id}-title-error`} role="alert" className="text-sm text-destructive">
            {errors.title[0]}
          </p>
        ) : null}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-content`}>Contenido</Label>
        <textarea
          id={`${id}-content`}
          name="content"
          rows={5}
          maxLength={POST_CONTENT_MAX}
          placeholder="Escribe algo..."
          className="rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm"
        />
        {errors?.content ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.content[0]}
          </p>
        ) : null}
      </div>
      {/* Without JavaScript the type cannot reveal this field, so it is always there (the server
          requires it for link posts only). */}
      {postType === 'link' || !hydrated ? (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-url`}>{hydrated ? 'URL' : 'URL (solo para posts de tipo enlace)'}</Label>
          <Input
            id={`${id}-url`}
            name="linkUrl"
            type="url"
            inputMode="url"
            placeholder="https://"
            required={hydrated}
            aria-invalid={errors?.linkUrl ? true : undefined}
            aria-describedby={errors?.linkUrl ? `${id}-url-error` : undefined}
          />
          {errors?.linkUrl ? (
            <p id={`${id}-url-error`} role="alert" className="text-sm text-destructive">
              {errors.linkUrl[0]}
            </p>
          ) : null}
        </div>
      ) : null}
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-category`}>Categoría (opcional)</Label>
        <select
          id={`${id}-category`}
          name="categoryId"
          defaultValue=""
          className="h-10 rounded-md border border-input bg-background px-3 text-sm"
        >
          <option value="">Sin categoría</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {category.name}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-files`} className="flex items-center gap-2">
          <Paperclip className="size-4" aria-hidden /> Adjuntos
        </Label>
        <input
          id={`${id}-files`}
          name="attachments"
          type="file"
          multiple
          accept={ACCEPT}
          onChange={(event) => setFileError(checkFiles([...(event.currentTarget.files ?? [])]))}
          aria-describedby={`${id}-files-help`}
          className="text-sm file:mr-3 file:rounded-md file:border-0 file:bg-secondary file:px-3 file:py-2 file:text-sm file:font-medium"
        />
        <p id={`${id}-files-help`} className="text-xs text-muted-foreground">
          Imágenes, PDF, DOC, DOCX o TXT. Hasta 5 archivos, 10 MB cada uno y 25 MB en total.
        </p>
        {fileError || errors?.attachments ? (
          <p role="alert" className="text-sm text-destructive">
            {fileError ?? errors?.attachments?.[0]}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={sending || (hydrated && !title.trim()) || Boolean(fileError)}>
        {sending ? 'Publicando...' : 'Publicar'}
      </Button>
    </fetcher.Form>
  )
}

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
