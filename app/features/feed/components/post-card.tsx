import { Download, ExternalLink, FileText, MessageCircle, Pencil, Pin, PinOff } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Link, useFetcher } from 'react-router'
import { HiddenFields } from '~/ui/hidden-fields'
import { RelativeTime } from '~/ui/relative-time'
import { Badge } from '~/ui/badge'
import { Button } from '~/ui/button'
import { cn } from '~/ui/cn'
import { ConfirmButton } from '~/ui/confirm-button'
import { Disclosure } from '~/ui/disclosure'
import { useResultToast } from '~/ui/toast'
import { useHydrated } from '~/ui/use-hydrated'
import { UserAvatar } from '~/ui/user-avatar'
import { FEED_ACTION, type FeedPostView, type FeedResult, postThread } from '../types'
import { useLivePostStats } from '~/features/notifications/live-events'
import { LikeButton } from '~/features/community/comments/like-button'
import type { CommentView } from '~/features/community/comments/types'
import { useFocusReturn } from '~/ui/use-focus-return'
import { lazyPart } from '~/ui/lazy-part'
import { CommentsPanel } from '~/features/community/comments/comments-panel'
import { HiddenNotice, ReportButton } from '~/features/moderation/components/moderation-controls'

/**
 * The edit form and its form library load when a member first edits a post. Without JavaScript
 * 'Editar' is a link (`?editar=<id>`) to the feed with that post's form open.
 */
const PostEditForm = lazyPart(() => import('./post-edit-form').then((module) => module.PostEditForm))

/** Spec: text over 150 characters or more than 2 lines collapses behind 'Ver más'. */
const COLLAPSE_CHARS = 150
const COLLAPSE_LINES = 2

function formatSize(bytes: number) {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

export function PostCard({
  post,
  initialComments,
  editOnLoad = false,
}: {
  post: FeedPostView
  initialComments?: CommentView[]
  /** Opened from the no-JS 'Editar' link. */
  editOnLoad?: boolean
}) {
  const remove = useFetcher<FeedResult>()
  const pin = useFetcher<FeedResult>()
  const [editing, setEditing] = useState(editOnLoad && post.canEdit)
  const editButton = useFocusReturn<HTMLButtonElement>(editing)
  const [showComments, setShowComments] = useState(Boolean(initialComments))
  const [expanded, setExpanded] = useState(false)
  useResultToast(remove.state, remove.data)
  useResultToast(pin.state, pin.data)
  const articleRef = useRef<HTMLElement>(null)
  // Other members' likes and comments move the counters while the page is open.
  const live = useLivePostStats(post.id, `${post.likeCount}:${post.commentCount}`)
  const commentCount = live?.commentCount ?? post.commentCount
  // A notification's link (…?comentarios=<post>) opens the comments also on a page already shown.
  useEffect(() => {
    if (!initialComments) return
    setShowComments(true)
    articleRef.current?.scrollIntoView({ block: 'start' })
  }, [initialComments])

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
    <article
      ref={articleRef}
      id={`post-${post.id}`}
      aria-labelledby={`post-title-${post.id}`}
      className={cn('rounded-xl border bg-card p-4 sm:p-5', remove.state !== 'idle' && 'opacity-50')}
    >
      {/* On a phone the pin and the category move under the author instead of squeezing the name. */}
      <header className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <UserAvatar avatarUrl={post.author.avatarUrl} name={post.author.name} className="size-10" />
        <div className="min-w-0 flex-1 basis-40">
          <p className="flex flex-wrap items-center gap-x-2 text-sm">
            {post.author.userId ? (
              <Link to={`/usuario/${post.author.userId}`} className="font-semibold hover:underline">
                {post.author.name}
              </Link>
            ) : (
              <span className="font-semibold">{post.author.name}</span>
            )}
            {post.author.isPremium ? <Badge variant="premium">Premium</Badge> : null}
          </p>
          <p className="text-xs text-muted-foreground">
            <RelativeTime date={post.createdAt} />
            {post.edited ? ' · editado' : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
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
      {post.moderation ? <HiddenNotice kind="post" itemId={post.id} moderation={post.moderation} /> : null}

      {editing ? (
        <PostEditForm post={post} onDone={() => setEditing(false)} />
      ) : (
        <div className="mt-3">
          <h3 id={`post-title-${post.id}`} className="text-lg font-semibold leading-snug break-words">
            {post.title}
          </h3>
          {content ? (
            <div className="mt-1">
              <p className="whitespace-pre-line break-words text-sm leading-6 text-slate-800">{shownContent}</p>
              {collapsible && hydrated ? (
                <button
                  type="button"
                  onClick={() => setExpanded(!expanded)}
                  className="mt-1 text-sm font-medium text-primary hover:underline"
                  aria-expanded={expanded}
                >
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
            <a
              key={image.id}
              href={image.url}
              target="_blank"
              rel="noopener noreferrer"
              className="block overflow-hidden rounded-lg border"
            >
              <img src={image.url} alt={image.fileName} loading="lazy" decoding="async" className="max-h-80 w-full object-cover" />
            </a>
          ))}
        </div>
      ) : null}
      {files.length ? (
        <ul className="mt-3 grid gap-2" aria-label="Adjuntos">
          {files.map((file) => (
            <li key={file.id}>
              <a
                href={file.url}
                className="flex items-center gap-2 rounded-lg border px-3 py-2 text-sm hover:bg-accent"
                download={file.fileName}
              >
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
        <LikeButton
          action={FEED_ACTION}
          intent="like-post"
          field="postId"
          id={post.id}
          liked={post.likedByMe}
          count={live?.likeCount ?? post.likeCount}
          countAt={live?.at}
        />
        <CommentsToggle postId={post.id} open={showComments} count={commentCount} onToggle={() => setShowComments(!showComments)} />
        <div className="ml-auto flex flex-wrap items-center justify-end gap-1 has-[details[open]]:basis-full">
          {post.canEdit ? null : <ReportButton kind="post" itemId={post.id} className="open:order-last open:basis-full" />}
          {post.canPin ? (
            <pin.Form method="post" action={FEED_ACTION}>
              <HiddenFields values={{ intent: 'pin-post', postId: post.id, pinned: String(!pinned) }} />
              <Button type="submit" variant="ghost" size="sm">
                {pinned ? <PinOff aria-hidden /> : <Pin aria-hidden />} {pinned ? 'Desfijar' : 'Fijar'}
              </Button>
            </pin.Form>
          ) : null}
          {post.canEdit && !editing ? (
            hydrated ? (
              <Button ref={editButton} type="button" variant="ghost" size="sm" onClick={() => setEditing(true)}>
                <Pencil aria-hidden /> Editar
              </Button>
            ) : (
              <Button asChild variant="ghost" size="sm">
                <Link to={`/comunidad?editar=${post.id}#post-${post.id}`}>
                  <Pencil aria-hidden /> Editar
                </Link>
              </Button>
            )
          ) : null}
          {post.canDelete ? (
            <ConfirmButton
              fetcher={remove}
              action={FEED_ACTION}
              fields={{ intent: 'delete-post', postId: post.id }}
              question="¿Estás seguro de que quieres eliminar este post?"
            />
          ) : null}
        </div>
      </footer>
      {showComments ? <CommentsPanel thread={postThread(post.id)} initialComments={initialComments} /> : null}
    </article>
  )
}

/** With JavaScript the list opens in place; without it, the link reloads the feed with the comments. */
function CommentsToggle({ postId, open, count, onToggle }: { postId: string; open: boolean; count: number; onToggle: () => void }) {
  const hydrated = useHydrated()
  const label = `${count} ${count === 1 ? 'comentario' : 'comentarios'}`
  if (!hydrated) {
    return (
      <a
        href={`/comunidad?comentarios=${postId}#post-${postId}`}
        className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 hover:bg-accent"
      >
        <MessageCircle className="size-4" aria-hidden /> {label}
      </a>
    )
  }
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-expanded={open}
      className="inline-flex items-center gap-1.5 rounded-md px-2.5 py-1.5 hover:bg-accent"
    >
      <MessageCircle className="size-4" aria-hidden /> {label}
    </button>
  )
}
