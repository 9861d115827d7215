import { Link, Text } from '@react-email/components'
import { EmailButton, EmailLayout, type EmailUnsubscribe, LONG_ADDRESS } from '~/platform/mail/layout'

/** The 24 h and 1 h reminder of an event the member registered for. */
export function EventReminderEmail({
  firstName,
  title,
  when,
  location,
  eventUrl,
  joinUrl,
  unsubscribe,
}: {
  firstName: string | null
  title: string
  when: string
  location: string | null
  eventUrl: string
  joinUrl: string | null
  unsubscribe: EmailUnsubscribe
}) {
  return (
    <EmailLayout preview={`${title}: ${when}`} title={`Te esperamos${firstName ? `, ${firstName}` : ''}`} unsubscribe={unsubscribe}>
      <Text>
        Tienes plaza en <strong>{title}</strong>.
      </Text>
      <Text>
        Cuándo: {when}
        {location ? (
          <>
            <br />
            Dónde: {location}
          </>
        ) : null}
      </Text>
      {joinUrl ? (
        <Text>
          Enlace para conectarte:{' '}
          <Link href={joinUrl} style={{ color: '#0f766e', ...LONG_ADDRESS }}>
            {joinUrl}
          </Link>
        </Text>
      ) : null}
      <EmailButton href={eventUrl}>Ver el evento</EmailButton>
      <Text style={{ fontSize: '13px', color: '#6b7280' }}>
        Si ya no puedes asistir, cancela tu registro en la página del evento: tu plaza pasará a otro miembro.
      </Text>
    </EmailLayout>
  )
}
