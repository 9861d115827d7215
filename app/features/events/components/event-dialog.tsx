import { lazyPart } from '~/ui/lazy-part'

export type { EditableEvent } from './event-dialog-form'

/** The event form and its form library load when an admin's page first renders the dialog. */
export const EventDialog = lazyPart(() => import('./event-dialog-form').then((module) => module.EventDialog))
