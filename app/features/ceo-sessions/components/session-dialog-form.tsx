import { getInputProps, useForm } from '@conform-to/react'
import { Plus, X } from 'lucide-react'
import { useRef, useState } from 'react'
import { failedSubmission } from '~/platform/http/result'
import { Button } from '~/ui/button'
import { FormDialog } from '~/ui/form-dialog'
import { Field, FileField, TextareaField } from '~/ui/field'
import { Input } from '~/ui/input'
import { Label } from '~/ui/label'
import { showToast } from '~/ui/toast'
import {
  SHORT_TEXT_MAX,
  TAG_MAX,
  TAGS_MAX,
  TEXT_MAX,
  TITLE_MAX,
  tooLarge,
  PDF_MAX_BYTES,
  THUMBNAIL_MAX_BYTES,
  SESSION_MESSAGES,
  VIDEO_MAX_BYTES,
} from '../limits'
import { SESSIONS_ACTION } from '../paths'
import type { SessionFieldsInput } from '../schemas'
import type { SessionFields } from '../types'
import { type UploadProgress, useVideoUpload } from './use-video-upload'

/** What the edit dialog starts from (loaded by the tab when '?editar=' names a session). */
export interface EditableSession extends SessionFields<string> {
  id: string
  pdfName: string | null
}

/**
 * The fields SessionFieldsSchema requires, checked before sending (the schema stays on the
 * server: this page loads no Zod). The compiler keeps this list equal to the schema's.
 */
type RequiredField = { [K in keyof SessionFieldsInput]-?: undefined extends SessionFieldsInput[K] ? never : K }[keyof SessionFieldsInput]
const REQUIRED_FIELDS = Object.keys({
  title: true,
  summary: true,
  description: true,
  ceoName: true,
  ceoPosition: true,
  ceoCompany: true,
  sessionDate: true,
} satisfies Record<RequiredField, true>)

/** The files checked before sending (spec 001 §5): what each picker takes, its limit, and the toast for another type. */
const FILES = {
  video: {
    name: '',
    accept: 'video/mp4,video/webm,video/quicktime,video/*',
    help: 'MP4, WebM o MOV, hasta 500 MB.',
    rightType: (type: string) => type.startsWith('video/'),
    limit: VIDEO_MAX_BYTES,
    typeProblem: SESSION_MESSAGES.videoType,
  },
  thumbnail: {
    name: 'thumbnail',
    accept: 'image/png,image/jpeg,image/webp,image/gif',
    help: 'Opcional. Sin miniatura se usa un fotograma del video.',
    rightType: (type: string) => type.startsWith('image/'),
    limit: THUMBNAIL_MAX_BYTES,
    typeProblem: SESSION_MESSAGES.imageType,
  },
  pdf: {
    name: 'pdf',
    accept: 'application/pdf,.pdf',
    help: 'Opcional, hasta 20 MB.',
    rightType: (type: string) => type.includes('pdf'),
    limit: PDF_MAX_BYTES,
    typeProblem: SESSION_MESSAGES.pdfType,
  },
}
type FileKind = keyof typeof FILES

/**
 * The create and edit dialog (spec 001 §5). The form's texts and small files go to the action;
 * the video never goes through a form: the action answers an upload address and the browser
 * sends the video there (useVideoUpload), with its progress shown.
 */
export function SessionDialog({ session, open, onClose }: { session?: EditableSession; open: boolean; onClose: () => void }) {
  const formRef = useRef<HTMLFormElement>(null)
  const [video, setVideo] = useState<File | null>(null)
  const [fileErrors, setFileErrors] = useState<Partial<Record<FileKind, string>>>({})
  const setFileError = (kind: FileKind, error?: string) => setFileErrors((errors) => ({ ...errors, [kind]: error }))
  const [tags, setTags] = useState<string[]>(session?.tags ?? [])
  const editing = Boolean(session)
  const { fetcher, progress, busy, saving } = useVideoUpload({
    video,
    onDone: () => {
      if (!editing) showToast(SESSION_MESSAGES.created)
      formRef.current?.reset()
      setVideo(null)
      setTags([])
      onClose()
    },
  })

  const [form, fields] = useForm<SessionFieldsInput>({
    id: session ? `edit-session-${session.id}` : 'new-session',
    lastResult: fetcher.state === 'idle' ? failedSubmission(fetcher.data) : undefined,
    // Tags are kept by TagsInput; the rest starts from the session being edited.
    defaultValue: session && {
      title: session.title,
      summary: session.summary,
      description: session.description,
      ceoName: session.ceoName,
      ceoPosition: session.ceoPosition,
      ceoCompany: session.ceoCompany,
      sessionDate: session.sessionDate,
      durationMinutes: session.durationMinutes === null ? '' : String(session.durationMinutes),
      isFeatured: session.isFeatured ? 'on' : '',
    },
    shouldRevalidate: 'onInput',
    onSubmit(event) {
      const values = new FormData(event.currentTarget)
      const missing = REQUIRED_FIELDS.some((name) => !String(values.get(name) ?? '').trim())
      if (missing || (!editing && !video)) {
        event.preventDefault()
        if (!editing && !video) setFileError('video', SESSION_MESSAGES.videoRequired)
        showToast({ type: 'error', ...SESSION_MESSAGES.required })
        return
      }
      if (Object.values(fileErrors).some(Boolean)) event.preventDefault()
      else saving()
    },
  })

  /**
   * Spec 001 §5: a file of the wrong type or over its limit is refused with a toast and the input
   * is cleared. Answers whether the file may stay chosen.
   */
  function checkFile(kind: FileKind, file: File | undefined) {
    setFileError(kind)
    if (kind === 'video') setVideo(null)
    if (!file) return true
    const { rightType, limit, typeProblem } = FILES[kind]
    const problem = !rightType(file.type) ? typeProblem : file.size > limit ? tooLarge(kind, file.size) : null
    if (problem) {
      showToast({ type: 'error', ...problem })
      setFileError(kind, problem.description)
      return false
    }
    if (kind === 'video') setVideo(file)
    return true
  }

  const filePicker = (kind: FileKind, label: string) => (
    <FileField
      label={label}
      name={FILES[kind].name}
      accept={FILES[kind].accept}
      help={FILES[kind].help}
      error={fileErrors[kind]}
      onFiles={(files) => checkFile(kind, files[0])}
    />
  )

  return (
    <FormDialog
      title={editing ? 'Editar Sesión' : 'Nueva Sesión'}
      description={
        editing
          ? 'Cambia los datos de la sesión o reemplaza sus archivos.'
          : 'Los campos marcados con * son obligatorios. El video se procesa después de subirlo.'
      }
      open={open}
      busy={busy}
      onClose={onClose}
      fetcher={fetcher}
      form={form}
      formRef={formRef}
      action={SESSIONS_ACTION}
      hidden={{
        intent: editing ? 'update-session' : 'create-session',
        sessionId: session?.id,
        videoSize: video?.size,
        videoType: video?.type,
      }}
      submitLabel={editing ? 'Guardar cambios' : 'Crear sesión'}
    >
      <Field label="Título *" field={fields.title} maxLength={TITLE_MAX} />
      <TextareaField label="Resumen *" field={fields.summary} rows={2} maxLength={SHORT_TEXT_MAX} />
      <TextareaField label="Descripción *" field={fields.description} rows={4} maxLength={TEXT_MAX} />
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Nombre del CEO *" field={fields.ceoName} maxLength={SHORT_TEXT_MAX} />
        <Field label="Cargo *" field={fields.ceoPosition} maxLength={SHORT_TEXT_MAX} />
        <Field label="Empresa *" field={fields.ceoCompany} maxLength={SHORT_TEXT_MAX} />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Fecha de la sesión (hora de Madrid) *" field={fields.sessionDate} type="datetime-local" />
        <Field label="Duración en minutos" field={fields.durationMinutes} type="number" min={1} step={1} inputMode="numeric" />
      </div>
      <TagsInput tags={tags} onChange={setTags} errors={fields.tags.errors} />
      <label className="flex items-center gap-2 text-sm">
        <input {...getInputProps(fields.isFeatured, { type: 'checkbox' })} className="size-4" /> Sesión destacada
      </label>
      {filePicker('video', editing ? 'Reemplazar video' : 'Video *')}
      {filePicker('thumbnail', editing ? 'Reemplazar miniatura' : 'Miniatura')}
      {filePicker('pdf', editing && session?.pdfName ? `Reemplazar PDF (${session.pdfName})` : 'PDF')}
      {editing && session?.pdfName ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="removePdf" className="size-4" /> Quitar el PDF actual
        </label>
      ) : null}
      <FileField label="Subtítulos (WebVTT)" name="captions" accept=".vtt,text/vtt" help="Opcional: un archivo .vtt en español." />
      <ProgressLine progress={progress} />
    </FormDialog>
  )
}

function ProgressLine({ progress }: { progress: UploadProgress }) {
  if (progress.stage === 'idle') return null
  const label = progress.stage === 'creating' ? 'Guardando la sesión...' : `Subiendo video... ${progress.percent}%`
  return (
    <div className="grid gap-1" role="status">
      <p className="text-sm font-medium">{label}</p>
      {progress.stage === 'uploading' ? (
        <progress className="h-2 w-full accent-primary" max={100} value={progress.percent} aria-label="Progreso de la subida del video" />
      ) : null}
      {progress.stage === 'uploading' ? <p className="text-xs text-muted-foreground">No cierres esta página hasta que termine.</p> : null}
    </div>
  )
}

/** Spec 001 §5: tags trimmed and without repeats, added with 'Agregar' or Enter. */
function TagsInput({ tags, onChange, errors }: { tags: string[]; onChange: (tags: string[]) => void; errors?: string[] }) {
  const [draft, setDraft] = useState('')
  const add = () => {
    const tag = draft.trim().slice(0, TAG_MAX)
    if (tag && !tags.some((existing) => existing.toLowerCase() === tag.toLowerCase()) && tags.length < TAGS_MAX) onChange([...tags, tag])
    setDraft('')
  }
  return (
    <div className="grid gap-1.5">
      <Label htmlFor="session-tag">Etiquetas</Label>
      <div className="flex gap-2">
        <Input
          id="session-tag"
          value={draft}
          maxLength={TAG_MAX}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault()
              add()
            }
          }}
          placeholder="Liderazgo, Estrategia..."
        />
        <Button type="button" variant="secondary" onClick={add}>
          <Plus className="size-4" aria-hidden /> Agregar
        </Button>
      </div>
      {tags.length ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Etiquetas añadidas">
          {tags.map((tag) => (
            <li key={tag} className="inline-flex items-center gap-1 rounded-full bg-secondary px-2.5 py-0.5 text-xs font-medium">
              {tag}
              <input type="hidden" name="tags" value={tag} />
              <button
                type="button"
                onClick={() => onChange(tags.filter((t) => t !== tag))}
                className="rounded-full p-0.5 hover:bg-background"
              >
                <X className="size-3" aria-hidden />
                <span className="sr-only">Quitar la etiqueta {tag}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {errors?.length ? (
        <p role="alert" className="text-sm text-destructive">
          {errors[0]}
        </p>
      ) : null}
    </div>
  )
}
