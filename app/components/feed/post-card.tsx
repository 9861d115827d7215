import { Download, ExternalLink, FileText, MessageCircle, Pencil, Pin, PinOff, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Disclosure, DisclosureForm } from '~/components/ui/disclosure'
import { Input } from '~/components/ui/input'
import { UserAvatar } from '~/components/user-avatar'
import { cn } from '~/utils/cn'
import { useHydrated } from '~/utils/use-hydrated'
import { POST_CONTENT_MAX, POST_TITLE_MAX } from '~/utils/community-schemas'
import { fullDateTime, relativeTime } from '~/utils/relative-time'
import { CommentsPanel } from './comments'
import { ConfirmButton } from './confirm-button'
import { LikeButton } from './like-button'
import type { CommentView, FeedActionData, FeedPostView } from './types'
import { useActionToast } from './use-action-toast'

/** Spec: text over 150 characters or more than 2 lines collapses behind 'Ver más'. */
const COLLAPSE_CHARS = 150
const COLLAPSE_LINES = 2

function formatSize(bytes: number) {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

export function PostCard({ post, initialComments }: { post: FeedPostView; initialComments?: CommentView[] }) {
  const edit = useFetcher<FeedActionData>()
  const remove = useFetcher<FeedActionData>()
  const pin = useFetcher<FeedActionData>()
  const [editing, setEditing] = useState(false)
  const [showComments, setShowComments] = useState(Boolean(initialComments))
  const [expanded, setExpanded] = useState(false)
  useActionToast(edit.state, edit.data, { onSuccess: () => setEditing(false) })
  useActionToast(remove.state, remove.data)
  useActionToast(pin.state, pin.data)

  const hydrated = useHydrated()
  const pinned = pin.formData ? pin.formData.get('pinned') === 'true' : post.isPinned

  const content = post.content ?? ''
  const collapsible = content.length > COLLAPSE_CHARS || content.split('\n').length > COLLAPSE_LINES
  const preview = content.slice(0, COLLAPSE_CHARS).split('\n').slice(0, COLLAPSE_LINES).join('\n')
  const shownContent = collapsible && !expanded ? `${preview}…` : content

  if (remove.data?.ok) return null
  const images = post.attachments.filter((attachment) => attachment.isImage)
  const files = post.attachments.filter((attachment) => !attachment.isImage)

  return (
    <article id={`post-${post.id}`} aria-labelledby={`post-title-${post.id}`} className={cn('rounded-xl border bg-card p-4 sm:p-5', remove.state !== 'idle' && 'opacity-50')}>
      <header className="flex items-start gap-3">
        <UserAvatar avatarUrl={post.author.avatarUrl} email={post.author.name} name={post.author.name} className="size-10" />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 text-sm">
            <Link to={`/usuario/${post.author.userId}`} className="font-semibold hover:underline">
              {post.author.name}
            </Link>
            {post.author.isPremium ? <Badge variant="premium">Premium</Badge> : null}
          </p>
          <p className="text-xs text-muted-foreground">
            <time dateTime={post.createdAt} title={fullDateTime(post.createdAt)} suppressHydrationWarning>
              {relativeTime(post.createdAt)}
            </time>
            {post.edited ? ' · editado' : ''}
          </p>
        </div>
        <div className="flex items-center gap-2">
          {pinned ? (
            <span className="inline-flex items-center gap-1 text-xs font-medium text-primary">
              <Pin className="size-3.5" aria-hidden /> Fijado
            </span>
          ) : null}
          {post.category ? (
            <span className="rounded-full px-2 py-0.5 text-xs font-medium text-white" style={{ backgroundColor: post.category.color }}>
              {post.category.name}
            </span>
          ) : null}
        </div>
      </header>

      {editing ? (
        <edit.Form method="post" action="/comunidad" className="mt-3 grid gap-2">
          <PostEditFields post={post} />
          {edit.data && !edit.data.ok && edit.data.fieldErrors ? (
            <p role="alert" className="text-sm text-destructive">
              {Object.values(edit.data.fieldErrors)[0]?.[0]}
            </p>
          ) : null}
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={edit.state !== 'idle'}>
              Guardar
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
              Cancelar
            </Button>
          </div>
        </edit.Form>
      ) : (
        <div className="mt-3">
          <h3 id={`post-title-${post.id}`} className="text-lg font-semibold leading-snug break-words">
            {post.title}
          </h3>
          {content ? (
            <div className="mt-1">
              <p className="whitespace-pre-line break-words text-sm leading-6 text-slate-800">{shownContent}</p>
              {collapsible && hydrated ? (
                <button type="button" onClick={() => setExpanded(!expanded)} className="mt-1 text-sm font-medium text-primary hover:underline" aria-expanded={expanded}>
                  {expanded ? 'Ver menos' : 'Ver más'}
                </button>
              ) : null}
              {collapsible && !hydrated ? (
                // Without JavaScript the rest of the text opens below the preview.
                <Disclosure summary="Ver más" summaryClassName="mt-1 text-sm font-medium text-primary hover:underline">
                  <p className="whitespace-pre-line break-words text-sm leading-6 text-slate-800">{content.slice(preview.length)}</p>
                </Disclosure>
              ) : null}
            </div>
          ) : null}
          {post.linkUrl ? (
            <a
              href={post.linkUrl}
              target="_blank"
              rel="noopener noreferrer nofollow ugc"
              className="mt-2 inline-flex max-w-full items-center gap-1 break-all text-sm text-primary underline underline-offset-4"
            >
              <ExternalLink className="size-3.5 shrink-0" aria-hidden /> {post.linkUrl}
            </a>
          ) : null}
        </div>
      )}

      {images.length ? (
        <div className={cn('mt-3 grid gap-2', images.length > 1 && 'grid-cols-2')}>
          {images.map((image) => (
            <a key={image.id} href={image.url} target="_blank" rel="noopener noreferrer" className="block overflow-hidden rounded-lg border">
              <img src={image.url} alt={image.fileName} loading="lazy" decoding="async" className="max-h-80 w-full object-cover" />
            </a>
          ))}
        </div>
      ) : null}
      {files.length ? (
        <ul className="mt-3 grid gap-2" aria-label="Adjuntos">
          {files.map((file) => (
            <li key={file.id}>
              <a href={file.url} className="flex items-center gap-2 rounded-lg border px-3 py-2 text-sm hover:bg-accent" download={file.fileName}>
                <FileText className="size-4 text-primary" aria-hidden />
                <span className="min-w-0 flex-1 truncate">{file.fileName}</span>
                <span className="text-xs text-muted-foreground">{formatSize(file.fileSize)}</span>
                <Download className="size-4" aria-hidden />
              </a>
            </li>
          ))}
        </ul>
      ) : null}

      <footer className="mt-3 flex flex-wrap items-center gap-1 border-t pt-2 text-sm">
        <LikeButton target="post" id={post.id} liked={post.likedByMe} count={post.likeCount} />
        <CommentsToggle postId={post.id} open={showComments} count={post.commentCount} onToggle={() => setShowComments(!showComments)} />
        <div className="ml-auto flex flex-wrap items-center justify-end gap-1 has-[details[open]]:basis-full">
          {post.canPin ? (
            <pin.Form method="post" action="/comunidad">
              <input type="hidden" name="intent" value="pin-post" />
              <input type="hidden" name="postId" value={post.id} />
              <input type="hidden" name="pinned" value={String(!pinned)} />
              <Button type="submit" variant="ghost" size="sm">
                {pinned ? <PinOff aria-hidden /> : <Pin aria-hidden />} {pinned ? 'Desfijar' : 'Fijar'}
              </Button>
            </pin.Form>
          ) : null}
          {post.canEdit && !editing ? (
            hydrated ? (
              <Button type="button" variant="ghost" size="sm" onClick={() => setEditing(true)}>
                <Pencil aria-hidden /> Editar
              </Button>
            ) : (
              <DisclosureForm
                summary={<><Pencil aria-hidden /> Editar</>}
                summaryClassName="inline-flex h-9 items-center gap-1 rounded-md px-3 text-sm font-medium hover:bg-accent [&_svg]:size-4"
                action="/comunidad"
                submitLabel="Guardar"
                className="open:order-last open:basis-full"
              >
                <PostEditFields post={post} />
              </DisclosureForm>
            )
          ) : null}
          {post.canDelete ? (
            <ConfirmButton
              fetcher={remove}
              fields={{ intent: 'delete-post', postId: post.id }}
              question="¿Estás seguro de que quieres eliminar este post?"
              className="inline-flex h-9 items-center gap-1 rounded-md px-3 text-sm font-medium text-destructive hover:bg-accent [&_svg]:size-4"
            >
              <Trash2 aria-hidden /> Eliminar
            </ConfirmButton>
          ) : null}
        </div>
      </footer>
      {showComments ? <CommentsPanel postId={post.id} initialComments={initialComments} /> : null}
    </article>
  )
}

/** With JavaScript the list opens in place; without it, the link reloads the feed with the comments. */
function CommentsToggle({ postId, open, count, onToggle }: { postId: string; open: boolean; count: number; onToggle: () => void }) {
  const hydrated = useHydrated()
  const label = `${count} ${count === 1 ? 'comentario' : 'comentarios'}`
  if (!hydrated) {
    return (
      <a href={`/comunidad?comentarios=${postId}#post-${postId}`} className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 hover:bg-accent">
        <MessageCircle className="size-4" aria-hidden /> {label}
      </a>
    )
  }
  return (
    <button type="button" onClick={onToggle} aria-expanded={open} className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 hover:bg-accent">
      <MessageCircle className="size-4" aria-hidden /> {label}
    </button>
  )
}

/** The fields of a post's edit form, shared by the in-place form and the one that works without JavaScript. */
function PostEditFields({ post }: { post: FeedPostView }) {
  return (
    <>
      <input type="hidden" name="intent" value="update-post" />
      <input type="hidden" name="postId" value={post.id} />
      <label className="text-sm font-medium" htmlFor={`edit-title-${post.id}`}>
        Título
      </label>
      <Input id={`edit-title-${post.id}`} name="title" defaultValue={post.title} maxLength={POST_TITLE_MAX} required />
      {post.postType === 'link' ? (
        <>
          <label className="text-sm font-medium" htmlFor={`edit-url-${post.id}`}>
            URL
          </label>
          <Input id={`edit-url-${post.id}`} name="linkUrl" type="url" defaultValue={post.linkUrl ?? ''} required />
        </>
      ) : null}
      <label className="text-sm font-medium" htmlFor={`edit-content-${post.id}`}>
        Contenido
      </label>
      <textarea
        id={`edit-content-${post.id}`}
        name="content"
        rows={5}
        maxLength={POST_CONTENT_MAX}
        defaultValue={post.content ?? ''}
        className="rounded-md border border-input bg-background px-3 py-2 text-sm"
      />
    </>
  )
}
