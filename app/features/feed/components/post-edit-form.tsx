import { getFormProps, useForm } from '@conform-to/react'
import { useEffect, useRef } from 'react'
import { useActionData, useFetcher } from 'react-router'
import { failedSubmission } from '~/platform/http/result'
import { EditButtons } from '~/ui/edit-buttons'
import { Field, TextareaField } from '~/ui/field'
import { HiddenFields } from '~/ui/hidden-fields'
import { useResultToast } from '~/ui/toast'
import type { z } from 'zod'
import { POST_CONTENT_MAX, POST_TITLE_MAX } from '../limits'
import type { EditPostSchema } from '../schemas'
import { FEED_ACTION, failedEditOf, type FeedPostView, type FeedResult } from '../types'

/** A post's edit form: in place once the page is interactive; without JavaScript, on the feed opened at `?editar=<id>`. */
export function PostEditForm({ post, onDone }: { post: FeedPostView; onDone?: () => void }) {
  const fetcher = useFetcher<FeedResult>()
  // Without JavaScript the form posted the page itself: its failure comes back as the page's.
  const pageResult = useActionData<FeedResult>()
  const [form, fields] = useForm<z.input<typeof EditPostSchema>>({
    id: `edit-post-${post.id}`,
    lastResult: fetcher.state === 'idle' ? failedSubmission(fetcher.data ?? failedEditOf(pageResult, post.id)) : undefined,
    defaultValue: { title: post.title, content: post.content ?? '', linkUrl: post.linkUrl ?? '' },
  })
  useResultToast(fetcher.state, fetcher.data, { onSuccess: () => onDone?.() })
  // Opened in place from 'Editar' (which leaves the page): focus goes to what is being edited.
  const title = useRef<HTMLInputElement>(null)
  const inPlace = Boolean(onDone)
  useEffect(() => {
    if (inPlace) title.current?.focus()
  }, [inPlace])
  // The post's id in the address: the page answering a failed edit without JavaScript shows this
  // post first, its form open (after a successful one the page closes it).
  return (
    <fetcher.Form
      method="post"
      action={`${FEED_ACTION}&editar=${post.id}`}
      className="mt-3 grid gap-1 rounded-md bg-background"
      {...getFormProps(form)}
    >
      <HiddenFields values={{ intent: 'update-post', postId: post.id }} />
      <Field ref={title} label="Título" field={fields.title} maxLength={POST_TITLE_MAX} />
      {post.postType === 'link' ? <Field label="URL" field={fields.linkUrl} type="url" /> : null}
      <TextareaField label="Contenido" field={fields.content} rows={5} maxLength={POST_CONTENT_MAX} />
      <EditButtons disabled={fetcher.state !== 'idle'} onCancel={onDone} cancelTo={`/comunidad#post-${post.id}`} />
    </fetcher.Form>
  )
}
