import { lazyDialogPart } from '~/ui/lazy-part'

export type { EditableEvent } from './event-dialog-form'

/** The event form and its form library load when the dialog first opens. */
export const EventDialog = lazyDialogPart(() => import('./event-dialog-form').then((module) => module.EventDialog))
