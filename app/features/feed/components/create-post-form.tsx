import { FileText, Link2, Paperclip, Type } from 'lucide-react'
import { useForm } from '@conform-to/react'
import { useRef, useState } from 'react'
import { useFetcher } from 'react-router'
import { failedSubmission } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { Field, FileField, SelectField, TextareaField } from '~/ui/field'
import { UploadForm } from '~/ui/form-dialog'
import { useResultToast } from '~/ui/toast'
import { useHydrated } from '~/ui/use-hydrated'
import type { z } from 'zod'
import { ATTACHMENT_ERRORS, ATTACHMENT_LIMITS, POST_CONTENT_MAX, POST_TITLE_MAX } from '../limits'
import type { NewPostSchema } from '../schemas'
import { FEED_ACTION, type FeedResult } from '../types'

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

export function CreatePostForm({ categories, onDone }: { categories: Array<{ id: string; name: string }>; onDone?: () => void }) {
  const fetcher = useFetcher<FeedResult>()
  const formRef = useRef<HTMLFormElement>(null)
  const [postType, setPostType] = useState<'text' | 'link' | 'document'>('text')
  const [title, setTitle] = useState('')
  const hydrated = useHydrated()
  const [fileError, setFileError] = useState<string | null>(null)
  const sending = fetcher.state !== 'idle'
  const [form, fields] = useForm<z.input<typeof NewPostSchema>>({
    lastResult: fetcher.state === 'idle' ? failedSubmission(fetcher.data) : undefined,
    onSubmit(event) {
      const input = event.currentTarget.elements.namedItem('attachments') as HTMLInputElement | null
      const problem = checkFiles([...(input?.files ?? [])])
      if (problem) {
        event.preventDefault()
        setFileError(problem)
      }
    },
  })
  useResultToast(fetcher.state, fetcher.data, {
    onSuccess: () => {
      // The browser's own reset: Conform's form.reset() would post the form again.
      formRef.current?.reset()
      setTitle('')
      setPostType('text')
      onDone?.()
    },
  })

  return (
    <UploadForm
      fetcher={fetcher}
      form={form}
      formRef={formRef}
      action={FEED_ACTION}
      hidden={{ intent: 'create-post' }}
      className="grid gap-4"
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Tipo de post</legend>
        <div className="grid grid-cols-3 gap-2">
          {POST_TYPES.map(({ value, label, icon: Icon }) => (
            <label
              key={value}
              className="flex cursor-pointer items-center justify-center gap-2 rounded-md border px-2 py-2 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
            >
              <input
                type="radio"
                name={fields.postType.name}
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
      <Field
        label="Título"
        field={fields.title}
        maxLength={POST_TITLE_MAX}
        value={title}
        defaultValue={undefined}
        onChange={(event) => setTitle(event.currentTarget.value)}
      />
      <TextareaField label="Contenido" field={fields.content} maxLength={POST_CONTENT_MAX} placeholder="Escribe algo..." rows={5} />
      {/* Without JavaScript the type cannot reveal this field, so it is always there (the server
          requires it for link posts only). */}
      {postType === 'link' || !hydrated ? (
        <Field
          label={hydrated ? 'URL' : 'URL (solo para posts de tipo enlace)'}
          field={fields.linkUrl}
          type="url"
          inputMode="url"
          placeholder="https://"
        />
      ) : null}
      <SelectField
        label="Categoría (opcional)"
        field={fields.categoryId}
        options={Object.fromEntries(categories.map((category) => [category.id, category.name]))}
        placeholder="Sin categoría"
      />
      <FileField
        label={
          <>
            <Paperclip className="size-4" aria-hidden /> Adjuntos
          </>
        }
        name="attachments"
        multiple
        accept={ACCEPT}
        help="Imágenes, PDF, DOC, DOCX o TXT. Hasta 5 archivos, 10 MB cada uno y 25 MB en total."
        error={fileError}
        onFiles={(files) => setFileError(checkFiles(files))}
      />
      <Button type="submit" disabled={sending || (hydrated && !title.trim()) || Boolean(fileError)}>
        {sending ? 'Publicando...' : 'Publicar'}
      </Button>
    </UploadForm>
  )
}
