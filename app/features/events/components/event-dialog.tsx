import { type ComponentProps, useState } from 'react'
import { lazyPart } from '~/ui/lazy-part'

export type { EditableEvent } from './event-dialog-form'

const EventForm = lazyPart(() => import('./event-dialog-form').then((module) => module.EventDialog))

/**
 * The event form and its form library load when the dialog first opens. Not before: a part
 * still loading while the page hydrates holds back later router updates (ADR 0027).
 */
export function EventDialog(props: ComponentProps<typeof EventForm>) {
  const [used, setUsed] = useState(props.open)
  if (props.open && !used) setUsed(true)
  return used ? <EventForm {...props} /> : null
}
