import { getFormProps, getTextareaProps, useForm } from '@conform-to/react'
import { MessageSquareReply, Pencil } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { type FetcherWithComponents, useFetcher } from 'react-router'
import { HiddenFields } from '~/ui/hidden-fields'
import { RelativeTime } from '~/ui/relative-time'
import { failedSubmission, type Result } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { cn } from '~/ui/cn'
import { ConfirmButton } from '~/ui/confirm-button'
import { Disclosure } from '~/ui/disclosure'
import { EditButtons } from '~/ui/edit-buttons'
import { useResultToast } from '~/ui/toast'
import { useHydrated } from '~/ui/use-hydrated'
import { UserAvatar } from '~/ui/user-avatar'
import type { z } from 'zod'
import { usePremiumGate } from '../components/premium-gate'
import { CommentsLoading } from './comments-loading'
import { LikeButton } from './like-button'
import { COMMENT_MAX } from './limits'
import type { EditCommentIntent } from './schemas'
import type { CommentThread, CommentView } from './types'
import { useFocusReturn } from '~/ui/use-focus-return'
import { HiddenNotice, ReportButton } from '~/features/moderation/components/moderation-controls'
import { MODERATION_MESSAGES } from '~/features/moderation/reasons'

type CommentResult = Result<{ commentId?: string }>

/** The comment list of a post or a session: loaded when opened, reloaded after each change. */
export function CommentsPanel({ thread, initialComments }: { thread: CommentThread; initialComments?: CommentView[] }) {
  const loader = useFetcher<Result<{ comments: CommentView[] }>>()
  const commentsUrl = thread.url
  useEffect(() => {
    if (!initialComments && loader.state === 'idle' && !loader.data) void loader.load(commentsUrl)
  }, [commentsUrl, initialComments, loader])
  const reload = () => void loader.load(commentsUrl)
  // Deletions are answered here, not in the comment's own item: the list reloads after the
  // action, and the item of a deleted comment may be gone before its answer is read.
  const remove = useFetcher<CommentResult>()
  useResultToast(remove.state, remove.data, { onSuccess: reload })
  const comments = loader.data?.ok === false ? undefined : (loader.data?.comments ?? initialComments)
  if (loader.data?.ok === false && loader.state === 'idle') {
    return (
      <div role="alert" className="flex flex-wrap items-center gap-3 border-t py-3 text-sm">
        <span>{loader.data.message.title}</span>
        <Button type="button" variant="outline" size="sm" onClick={reload}>
          Reintentar
        </Button>
      </div>
    )
  }
  if (!comments) {
    return <CommentsLoading />
  }
  const topLevel = comments.filter((comment) => !comment.parentCommentId)
  const repliesOf = (id: string) => comments.filter((comment) => comment.parentCommentId === id)
  return (
    <div className="grid gap-3 border-t pt-3">
      {topLevel.length ? (
        <ul className="grid max-h-[28rem] gap-3 overflow-y-auto pr-1" aria-label="Comentarios">
          {topLevel.map((comment) => (
            <li key={comment.id} className="grid gap-2">
              <CommentItem comment={comment} thread={thread} remove={remove} onChanged={reload} canReply />
              {repliesOf(comment.id).length ? (
                <ul className="ml-10 grid gap-2 border-l pl-3" aria-label="Respuestas">
                  {repliesOf(comment.id).map((replyItem) => (
                    <li key={replyItem.id}>
                      <CommentItem comment={replyItem} thread={thread} remove={remove} onChanged={reload} />
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
      <CommentForm thread={thread} onAdded={reload} />
    </div>
  )
}

function CommentForm({
  thread,
  parentCommentId,
  onAdded,
  onCancel,
}: {
  thread: CommentThread
  parentCommentId?: string
  onAdded: () => void
  onCancel?: () => void
}) {
  const fetcher = useFetcher<CommentResult>()
  const { hasAccess, ask } = usePremiumGate()
  const [text, setText] = useState('')
  const hydrated = useHydrated()
  const textRef = useRef<HTMLTextAreaElement>(null)
  // A reply form is opened by its 'Responder' button: typing starts in it.
  useEffect(() => {
    if (parentCommentId) textRef.current?.focus()
  }, [parentCommentId])
  const [form, fields] = useForm<Pick<z.input<typeof EditCommentIntent>, 'content'>>({
    lastResult: fetcher.state === 'idle' ? failedSubmission(fetcher.data) : undefined,
    onSubmit(event) {
      if (!hasAccess) {
        event.preventDefault()
        ask()
      }
    },
  })
  useResultToast(fetcher.state, fetcher.data, {
    onSuccess: () => {
      setText('')
      onAdded()
      onCancel?.()
    },
  })
  const label = parentCommentId ? 'Escribe una respuesta' : 'Escribe un comentario'
  return (
    <fetcher.Form method="post" action={thread.action} className="grid gap-1" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="add-comment" />
      <input type="hidden" name={thread.field} value={thread.id} />
      {parentCommentId ? <input type="hidden" name="parentCommentId" value={parentCommentId} /> : null}
      {/* On a phone the text takes the whole row and the buttons go below it. */}
      <div className="flex min-w-0 flex-wrap items-end gap-2 sm:flex-nowrap">
        <label htmlFor={fields.content.id} className="sr-only">
          {label}
        </label>
        <textarea
          {...getTextareaProps(fields.content)}
          ref={textRef}
          rows={1}
          maxLength={COMMENT_MAX}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          placeholder={`${label}...`}
          className="min-h-10 min-w-0 basis-full resize-y rounded-md border border-input bg-background px-3 py-2 text-base focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:basis-0 sm:flex-1 md:text-sm"
        />
        <div className="ml-auto flex shrink-0 gap-2">
          {onCancel ? (
            <Button type="button" variant="ghost" size="sm" onClick={onCancel}>
              Cancelar
            </Button>
          ) : null}
          <Button type="submit" size="sm" disabled={(hydrated && !text.trim()) || fetcher.state !== 'idle'}>
            {parentCommentId ? 'Responder' : 'Comentar'}
          </Button>
        </div>
      </div>
      {fields.content.errors ? (
        <p id={fields.content.errorId} role="alert" className="text-sm text-destructive">
          {fields.content.errors[0]}
        </p>
      ) : null}
    </fetcher.Form>
  )
}

/** A comment's edit form: in place once the page is interactive, inside a disclosure without JavaScript. */
function CommentEditForm({ comment, thread, onDone }: { comment: CommentView; thread: CommentThread; onDone?: () => void }) {
  const fetcher = useFetcher<CommentResult>()
  const hydrated = useHydrated()
  const [draft, setDraft] = useState(comment.content)
  const [form, fields] = useForm<z.input<typeof EditCommentIntent>>({
    id: `edit-comment-${comment.id}`,
    lastResult: fetcher.state === 'idle' ? failedSubmission(fetcher.data) : undefined,
  })
  useResultToast(fetcher.state, fetcher.data, { onSuccess: () => onDone?.() })
  return (
    <fetcher.Form method="post" action={thread.action} className="mt-2 grid gap-2" {...getFormProps(form)}>
      <HiddenFields values={{ intent: 'update-comment', commentId: comment.id }} />
      <label className="sr-only" htmlFor={fields.content.id}>
        Editar comentario
      </label>
      <textarea
        {...getTextareaProps(fields.content)}
        value={draft}
        maxLength={COMMENT_MAX}
        onChange={(event) => setDraft(event.currentTarget.value)}
        className="rounded-md border border-input bg-background px-2 py-1 text-sm"
      />
      {fields.content.errors ? (
        <p id={fields.content.errorId} role="alert" className="text-sm text-destructive">
          {fields.content.errors[0]}
        </p>
      ) : null}
      <EditButtons disabled={(hydrated && !draft.trim()) || fetcher.state !== 'idle'} onCancel={onDone} />
    </fetcher.Form>
  )
}

const ACTION_LINK = 'inline-flex items-center gap-1 rounded px-2 py-1 hover:bg-accent'

function CommentItem({
  comment,
  thread,
  remove,
  onChanged,
  canReply = false,
}: {
  comment: CommentView
  thread: CommentThread
  remove: FetcherWithComponents<CommentResult>
  onChanged: () => void
  canReply?: boolean
}) {
  const { hasAccess, ask } = usePremiumGate()
  const [mode, setMode] = useState<'view' | 'edit' | 'reply'>('view')
  const editButton = useFocusReturn<HTMLButtonElement>(mode === 'edit')
  const replyButton = useFocusReturn<HTMLButtonElement>(mode === 'reply')
  const hydrated = useHydrated()
  const removing = remove.state !== 'idle' && remove.formData?.get('commentId') === comment.id

  const kind = thread.field === 'postId' ? 'comment' : 'session_comment'
  // Hidden by moderation, kept only because replies hang from it: one line, nothing of its text or author.
  if (comment.moderation && !comment.canEdit) {
    return (
      <article
        id={`comment-${comment.id}`}
        className="scroll-mt-24 rounded-lg border border-dashed px-3 py-2 text-sm text-muted-foreground"
      >
        {MODERATION_MESSAGES.placeholder}
      </article>
    )
  }

  return (
    <article id={`comment-${comment.id}`} className={cn('flex scroll-mt-24 gap-2', removing && 'opacity-50')}>
      <UserAvatar avatarUrl={comment.author.avatarUrl} name={comment.author.name} className="size-8 text-xs" />
      <div className="min-w-0 flex-1">
        <div className="rounded-lg bg-muted px-3 py-2">
          <p className="text-sm">
            {comment.author.userId ? (
              <a href={`/usuario/${comment.author.userId}`} className="font-semibold hover:underline">
                {comment.author.name}
              </a>
            ) : (
              <span className="font-semibold">{comment.author.name}</span>
            )}{' '}
            <RelativeTime date={comment.createdAt} className="text-xs text-muted-foreground">
              {comment.edited ? ' · editado' : ''}
            </RelativeTime>
          </p>
          {mode === 'edit' ? (
            <CommentEditForm
              comment={comment}
              thread={thread}
              onDone={() => {
                setMode('view')
                onChanged()
              }}
            />
          ) : (
            <p className="whitespace-pre-line break-words text-sm">{comment.content}</p>
          )}
        </div>
        {comment.moderation ? <HiddenNotice kind={kind} itemId={comment.id} moderation={comment.moderation} /> : null}
        <div className="mt-1 flex flex-wrap items-center gap-1 text-xs">
          {thread.likes ? (
            <LikeButton
              action={thread.action}
              intent="like-comment"
              field="commentId"
              id={comment.id}
              liked={comment.likedByMe}
              count={comment.likeCount}
              size="sm"
            />
          ) : null}
          {canReply && hydrated ? (
            <button
              ref={replyButton}
              type="button"
              onClick={() => (hasAccess ? setMode(mode === 'reply' ? 'view' : 'reply') : ask())}
              className="inline-flex items-center gap-1 rounded px-2 py-1 hover:bg-accent"
              aria-expanded={mode === 'reply'}
            >
              <MessageSquareReply className="size-3.5" aria-hidden /> Responder
            </button>
          ) : null}
          {canReply && !hydrated ? (
            <Disclosure
              summary={
                <>
                  <MessageSquareReply className="size-3.5" aria-hidden /> Responder
                </>
              }
              summaryClassName={ACTION_LINK}
            >
              <CommentForm thread={thread} parentCommentId={comment.id} onAdded={onChanged} />
            </Disclosure>
          ) : null}
          {comment.canEdit && hydrated ? (
            <button ref={editButton} type="button" onClick={() => setMode('edit')} className={ACTION_LINK}>
              <Pencil className="size-3.5" aria-hidden /> Editar
            </button>
          ) : null}
          {comment.canEdit && !hydrated ? (
            <Disclosure
              summary={
                <>
                  <Pencil className="size-3.5" aria-hidden /> Editar
                </>
              }
              summaryClassName={ACTION_LINK}
            >
              <CommentEditForm comment={comment} thread={thread} />
            </Disclosure>
          ) : null}
          {comment.canEdit ? null : <ReportButton kind={kind} itemId={comment.id} className="open:order-last open:basis-full" />}
          {comment.canDelete ? (
            <ConfirmButton
              fetcher={remove}
              fields={{ intent: 'delete-comment', commentId: comment.id }}
              action={thread.action}
              question="¿Estás seguro de que quieres eliminar este comentario?"
              compact
            />
          ) : null}
        </div>
        {mode === 'reply' ? (
          <div className="mt-2">
            <CommentForm thread={thread} parentCommentId={comment.id} onAdded={onChanged} onCancel={() => setMode('view')} />
          </div>
        ) : null}
      </div>
    </article>
  )
}
