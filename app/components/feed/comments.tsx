import { Loader2, MessageSquareReply, Pencil, Trash2 } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { useFetcher } from 'react-router'
import { Button } from '~/components/ui/button'
import { Disclosure, DisclosureForm } from '~/components/ui/disclosure'
import { UserAvatar } from '~/components/user-avatar'
import { COMMENT_MAX } from '~/utils/community-schemas'
import { cn } from '~/utils/cn'
import { useHydrated } from '~/utils/use-hydrated'
import { fullDateTime, relativeTime } from '~/utils/relative-time'
import { ConfirmButton } from './confirm-button'
import { LikeButton } from './like-button'
import { usePremiumGate } from './premium-required-dialog'
import type { CommentView, FeedActionData } from './types'
import { useActionToast } from './use-action-toast'

/** The expandable comment list of a post: loaded when opened, reloaded after each change. */
export function CommentsPanel({ postId, initialComments }: { postId: string; initialComments?: CommentView[] }) {
  const loader = useFetcher<{ comments: CommentView[] }>()
  const commentsUrl = `/comunidad/posts/${postId}/comentarios`
  useEffect(() => {
    if (!initialComments && loader.state === 'idle' && !loader.data) void loader.load(commentsUrl)
  }, [commentsUrl, initialComments, loader])
  const reload = () => void loader.load(commentsUrl)
  const comments = loader.data?.comments ?? initialComments
  if (!comments) {
    return (
      <p className="flex items-center gap-2 py-3 text-sm text-muted-foreground" role="status">
        <Loader2 className="size-4 animate-spin" aria-hidden /> Cargando comentarios...
      </p>
    )
  }
  const topLevel = comments.filter((comment) => !comment.parentCommentId)
  const repliesOf = (id: string) => comments.filter((comment) => comment.parentCommentId === id)
  return (
    <div className="grid gap-3 border-t pt-3">
      {topLevel.length ? (
        <ul className="grid max-h-[28rem] gap-3 overflow-y-auto pr-1" aria-label="Comentarios">
          {topLevel.map((comment) => (
            <li key={comment.id} className="grid gap-2">
              <CommentItem comment={comment} postId={postId} onChanged={reload} canReply />
              {repliesOf(comment.id).length ? (
                <ul className="ml-10 grid gap-2 border-l pl-3" aria-label="Respuestas">
                  {repliesOf(comment.id).map((replyItem) => (
                    <li key={replyItem.id}>
                      <CommentItem comment={replyItem} postId={postId} onChanged={reload} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">Todavía no hay comentarios. ¡Abre la conversación!</p>
      )}
      <CommentForm postId={postId} onAdded={reload} />
    </div>
  )
}

function CommentForm({ postId, parentCommentId, onAdded, onCancel }: { postId: string; parentCommentId?: string; onAdded: () => void; onCancel?: () => void }) {
  const fetcher = useFetcher<FeedActionData>()
  const { hasAccess, ask } = usePremiumGate()
  const [text, setText] = useState('')
  const hydrated = useHydrated()
  const id = useId()
  useActionToast(fetcher.state, fetcher.data, {
    onSuccess: () => {
      setText('')
      onAdded()
      onCancel?.()
    },
  })
  const label = parentCommentId ? 'Escribe una respuesta' : 'Escribe un comentario'
  return (
    <fetcher.Form
      method="post"
      // Without JavaScript the page that answers keeps this post's comments open.
      action={commentsPageOf(postId)}
      className="flex items-end gap-2"
      onSubmit={(event) => {
        if (!hasAccess) {
          event.preventDefault()
          ask()
        }
      }}
    >
      <input type="hidden" name="intent" value="add-comment" />
      <input type="hidden" name="postId" value={postId} />
      {parentCommentId ? <input type="hidden" name="parentCommentId" value={parentCommentId} /> : null}
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <textarea
        id={id}
        name="content"
        rows={1}
        maxLength={COMMENT_MAX}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        placeholder={`${label}...`}
        className="min-h-10 flex-1 resize-y rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm"
      />
      {onCancel ? (
        <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
          Cancelar
        </Button>
      ) : null}
      <Button type="submit" size="sm" disabled={(hydrated && !text.trim()) || fetcher.state !== 'idle'}>
        {parentCommentId ? 'Responder' : 'Comentar'}
      </Button>
    </fetcher.Form>
  )
}

/** /comunidad with this post's comments open, where forms without JavaScript land. */
const commentsPageOf = (postId: string) => `/comunidad?comentarios=${postId}`

const ACTION_LINK = 'inline-flex items-center gap-1 rounded px-2 py-1 hover:bg-accent'

function CommentItem({ comment, postId, onChanged, canReply = false }: { comment: CommentView; postId: string; onChanged: () => void; canReply?: boolean }) {
  const edit = useFetcher<FeedActionData>()
  const remove = useFetcher<FeedActionData>()
  const { hasAccess, ask } = usePremiumGate()
  const [mode, setMode] = useState<'view' | 'edit' | 'reply'>('view')
  const [draft, setDraft] = useState(comment.content)
  const hydrated = useHydrated()
  useActionToast(edit.state, edit.data, { onSuccess: () => { setMode('view'); onChanged() } })
  useActionToast(remove.state, remove.data, { onSuccess: onChanged })

  const removing = remove.state !== 'idle'

  return (
    <article className={cn('flex gap-2', removing && 'opacity-50')}>
      <UserAvatar avatarUrl={comment.author.avatarUrl} email={comment.author.name} name={comment.author.name} className="size-8 text-xs" />
      <div className="min-w-0 flex-1">
        <div className="rounded-lg bg-muted px-3 py-2">
          <p className="text-sm">
            <a href={`/usuario/${comment.author.userId}`} className="font-semibold hover:underline">
              {comment.author.name}
            </a>{' '}
            <time dateTime={comment.createdAt} title={fullDateTime(comment.createdAt)} className="text-xs text-muted-foreground" suppressHydrationWarning>
              {relativeTime(comment.createdAt)}
              {comment.edited ? ' · editado' : ''}
            </time>
          </p>
          {mode === 'edit' ? (
            <edit.Form method="post" action="/comunidad" className="mt-2 grid gap-2">
              <input type="hidden" name="intent" value="update-comment" />
              <input type="hidden" name="commentId" value={comment.id} />
              <label className="sr-only" htmlFor={`edit-${comment.id}`}>
                Editar comentario
              </label>
              <textarea
                id={`edit-${comment.id}`}
                name="content"
                value={draft}
                maxLength={COMMENT_MAX}
                onChange={(event) => setDraft(event.currentTarget.value)}
                className="rounded-md border border-input bg-background px-2 py-1 text-sm"
              />
              <div className="flex gap-2">
                <Button type="submit" size="sm" disabled={(hydrated && !draft.trim()) || edit.state !== 'idle'}>
                  Guardar
                </Button>
                <Button type="button" size="sm" variant="ghost" onClick={() => { setDraft(comment.content); setMode('view') }}>
                  Cancelar
                </Button>
              </div>
            </edit.Form>
          ) : (
            <p className="whitespace-pre-line break-words text-sm">{comment.content}</p>
          )}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-1 text-xs">
          <LikeButton target="comment" id={comment.id} liked={comment.likedByMe} count={comment.likeCount} size="sm" />
          {canReply && hydrated ? (
            <button type="button" onClick={() => (hasAccess ? setMode(mode === 'reply' ? 'view' : 'reply') : ask())} className="inline-flex items-center gap-1 rounded px-2 py-1 hover:bg-accent" aria-expanded={mode === 'reply'}>
              <MessageSquareReply className="size-3.5" aria-hidden /> Responder
            </button>
          ) : null}
          {canReply && !hydrated ? (
            <Disclosure summary={<><MessageSquareReply className="size-3.5" aria-hidden /> Responder</>} summaryClassName={ACTION_LINK}>
              <CommentForm postId={postId} parentCommentId={comment.id} onAdded={onChanged} />
            </Disclosure>
          ) : null}
          {comment.canEdit && hydrated ? (
            <button type="button" onClick={() => setMode('edit')} className={ACTION_LINK}>
              <Pencil className="size-3.5" aria-hidden /> Editar
            </button>
          ) : null}
          {comment.canEdit && !hydrated ? (
            <DisclosureForm summary={<><Pencil className="size-3.5" aria-hidden /> Editar</>} summaryClassName={ACTION_LINK} action={commentsPageOf(postId)} submitLabel="Guardar">
              <input type="hidden" name="intent" value="update-comment" />
              <input type="hidden" name="commentId" value={comment.id} />
              <label className="sr-only" htmlFor={`edit-nojs-${comment.id}`}>
                Editar comentario
              </label>
              <textarea id={`edit-nojs-${comment.id}`} name="content" defaultValue={comment.content} maxLength={COMMENT_MAX} required className="rounded-md border border-input bg-background px-2 py-1 text-sm" />
            </DisclosureForm>
          ) : null}
          {comment.canDelete ? (
            <ConfirmButton
              fetcher={remove}
              fields={{ intent: 'delete-comment', commentId: comment.id }}
              action={commentsPageOf(postId)}
              question="¿Estás seguro de que quieres eliminar este comentario?"
              className="inline-flex items-center gap-1 rounded px-2 py-1 text-destructive hover:bg-accent"
            >
              <Trash2 className="size-3.5" aria-hidden /> Eliminar
            </ConfirmButton>
          ) : null}
        </div>
        {mode === 'reply' ? (
          <div className="mt-2">
            <CommentForm postId={postId} parentCommentId={comment.id} onAdded={onChanged} onCancel={() => setMode('view')} />
          </div>
        ) : null}
      </div>
    </article>
  )
}
