import { lazyDialogPart } from '~/ui/lazy-part'

export type { EditableSession } from './session-dialog-form'

/** The session form, its uploader and form library load when the dialog first opens. */
export const SessionDialog = lazyDialogPart(() => import('./session-dialog-form').then((module) => module.SessionDialog))
