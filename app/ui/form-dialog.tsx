import { type FormMetadata, getFormProps } from '@conform-to/react'
import { Loader2 } from 'lucide-react'
import type { ReactNode, RefObject } from 'react'
import type { FetcherWithComponents } from 'react-router'
import type { Result } from '~/platform/http/result'
import { Button } from './button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from './dialog'
import { FormError } from './field'
import { HiddenFields } from './hidden-fields'

/**
 * A dialog holding a long form (a session, an event) that a fetcher posts, files and all: it
 * scrolls within the screen, a click outside does not close it (nothing typed is lost), and while
 * it sends it stays open. The server's refusal shows above the fields, 'Cancelar' and the submit
 * button (which spins while it sends) under them.
 */
export function FormDialog<Schema extends Record<string, unknown>>({
  title,
  description,
  open,
  onClose,
  fetcher,
  busy = fetcher.state !== 'idle',
  form,
  formRef,
  action,
  hidden,
  submitLabel,
  children,
}: {
  title: string
  description: ReactNode
  open: boolean
  /** While it sends; by default, while the fetcher does. */
  busy?: boolean
  onClose: () => void
  fetcher: FetcherWithComponents<Result | undefined>
  form: FormMetadata<Schema, string[]>
  formRef: RefObject<HTMLFormElement | null>
  action: string
  /** Posted as hidden fields (the intent, the id of what is edited); those undefined are left out. */
  hidden: Record<string, string | number | undefined>
  submitLabel: string
  children: ReactNode
}) {
  const failure = fetcher.data && !fetcher.data.ok ? fetcher.data.message : null
  return (
    <Dialog open={open} onOpenChange={(next) => (!next && !busy ? onClose() : undefined)}>
      <DialogContent className="max-h-[calc(100dvh-2rem)] max-w-2xl overflow-y-auto" onInteractOutside={(event) => event.preventDefault()}>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
        <UploadForm fetcher={fetcher} form={form} formRef={formRef} action={action} hidden={hidden} className="grid gap-3">
          <FormError errors={failure ? [failure.description ?? failure.title] : null} />
          {children}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="ghost" onClick={onClose} disabled={busy}>
              Cancelar
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? <Loader2 className="size-4 animate-spin" aria-hidden /> : null}
              {submitLabel}
            </Button>
          </div>
        </UploadForm>
      </DialogContent>
    </Dialog>
  )
}

/** A Conform form that a fetcher posts as multipart (files and all), with its hidden fields. */
export function UploadForm<Schema extends Record<string, unknown>>({
  fetcher,
  form,
  formRef,
  action,
  hidden,
  className,
  children,
}: {
  fetcher: FetcherWithComponents<unknown>
  form: FormMetadata<Schema, string[]>
  formRef: RefObject<HTMLFormElement | null>
  action: string
  /** Posted as hidden fields (the intent, the id of what is edited); those undefined are left out. */
  hidden: Record<string, string | number | undefined>
  className: string
  children: ReactNode
}) {
  return (
    <fetcher.Form ref={formRef} method="post" action={action} encType="multipart/form-data" className={className} {...getFormProps(form)}>
      <HiddenFields values={hidden} />
      {children}
    </fetcher.Form>
  )
}
