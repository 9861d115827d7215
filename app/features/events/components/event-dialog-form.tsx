import { SELECT_CLASS } from '~/ui/input'
import { getSelectProps, useForm } from '@conform-to/react'
import { useRef } from 'react'
import { useFetcher } from 'react-router'
import { failedSubmission, type Result } from '~/platform/http/result'
import { FormDialog } from '~/ui/form-dialog'
import { Field, FileField, TextareaField } from '~/ui/field'
import { Label } from '~/ui/label'
import { useResultToast } from '~/ui/toast'
import { EVENT_SHORT_MAX, EVENT_TEXT_MAX, EVENT_TIME_ZONES, EVENT_TITLE_MAX, EVENT_TYPES } from '../limits'
import { CALENDAR_ACTION } from '../paths'
import type { EventFields } from '../types'

/** What the edit dialog starts from. */
export interface EditableEvent extends EventFields<string> {
  id: string
}

type EventResult = Result<{ eventId?: string }>
type EventForm = Record<keyof EventFields, string>

/** 'Nuevo Evento' and 'Editar evento' (spec 001 §5 'Event edit'): the server checks every rule again. */
export function EventDialog({ event, open, onClose }: { event?: EditableEvent; open: boolean; onClose: () => void }) {
  const fetcher = useFetcher<EventResult>()
  const formRef = useRef<HTMLFormElement>(null)
  const [form, fields] = useForm<EventForm>({
    id: event ? `edit-event-${event.id}` : 'new-event',
    lastResult: fetcher.state === 'idle' ? failedSubmission(fetcher.data) : undefined,
    defaultValue: event
      ? {
          ...event,
          content: event.content ?? '',
          location: event.location ?? '',
          externalLink: event.externalLink ?? '',
          durationMinutes: String(event.durationMinutes),
          maxAttendees: event.maxAttendees === null ? '' : String(event.maxAttendees),
        }
      : { timeZone: 'Europe/Madrid', durationMinutes: '90', eventType: 'presencial' },
    shouldRevalidate: 'onInput',
  })
  useResultToast(fetcher.state, fetcher.data, {
    onSuccess: () => {
      formRef.current?.reset()
      onClose()
    },
  })
  return (
    <FormDialog
      title={event ? 'Editar evento' : 'Nuevo Evento'}
      description="Los campos marcados con * son obligatorios."
      open={open}
      onClose={onClose}
      fetcher={fetcher}
      form={form}
      formRef={formRef}
      action={CALENDAR_ACTION}
      hidden={{ intent: event ? 'update-event' : 'create-event', eventId: event?.id }}
      submitLabel={event ? 'Guardar cambios' : 'Crear evento'}
    >
      <Field label="Título *" field={fields.title} maxLength={EVENT_TITLE_MAX} />
      <TextareaField label="Descripción breve *" field={fields.description} rows={2} maxLength={EVENT_SHORT_MAX} />
      <TextareaField label="Detalles" field={fields.content} rows={4} maxLength={EVENT_TEXT_MAX} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Fecha y hora *" field={fields.eventDate} type="datetime-local" />
        <div className="grid gap-1.5">
          <Label htmlFor={fields.timeZone.id}>Zona horaria</Label>
          <select {...getSelectProps(fields.timeZone)} className={SELECT_CLASS}>
            {Object.entries(EVENT_TIME_ZONES).map(([zone, label]) => (
              <option key={zone} value={zone}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="grid gap-1.5">
          <Label htmlFor={fields.eventType.id}>Tipo *</Label>
          <select {...getSelectProps(fields.eventType)} className={SELECT_CLASS}>
            {Object.entries(EVENT_TYPES).map(([type, label]) => (
              <option key={type} value={type}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Field label="Duración (min)" field={fields.durationMinutes} type="number" min={5} step={5} inputMode="numeric" />
        <Field label="Máximo de asistentes" field={fields.maxAttendees} type="number" min={1} step={1} inputMode="numeric" />
      </div>
      <Field label="Lugar" field={fields.location} maxLength={EVENT_SHORT_MAX} />
      <Field label="Enlace externo" field={fields.externalLink} type="url" placeholder="https://" />
      <FileField
        label="Imagen"
        name="image"
        accept="image/png,image/jpeg,image/webp,image/gif"
        help="Opcional: JPG, PNG, WebP o GIF, hasta 10 MB."
      />
    </FormDialog>
  )
}
