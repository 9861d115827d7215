import { type ComponentProps, useState } from 'react'
import { lazyPart } from '~/ui/lazy-part'

export type { EditableSession } from './session-dialog-form'

const SessionForm = lazyPart(() => import('./session-dialog-form').then((module) => module.SessionDialog))

/**
 * The session form, its uploader and form library load when the dialog first opens. Not before:
 * a part still loading while the page hydrates holds back later router updates (ADR 0027).
 */
export function SessionDialog(props: ComponentProps<typeof SessionForm>) {
  const [used, setUsed] = useState(props.open)
  if (props.open && !used) setUsed(true)
  return used ? <SessionForm {...props} /> : null
}
