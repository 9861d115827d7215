import { lazyPart } from '~/ui/lazy-part'

export type { EditableSession } from './session-dialog-form'

/** The session form, its uploader and form library load when an admin's page first renders the dialog. */
export const SessionDialog = lazyPart(() => import('./session-dialog-form').then((module) => module.SessionDialog))
