import { Section, Text } from '@react-email/components'
import { EmailButton, EmailLayout, type EmailUnsubscribe } from '~/platform/mail/layout'

/**
 * A sender's messages still unread after 15 minutes (issue 41), in one e-mail. A request from
 * someone the member has not accepted comes without its text: only who wants to write.
 */
export function UnreadMessagesEmail({
  firstName,
  senderName,
  messages,
  isRequest,
  url,
  unsubscribe,
}: {
  firstName: string | null
  senderName: string
  messages: string[]
  isRequest: boolean
  url: string
  unsubscribe: EmailUnsubscribe
}) {
  const intro = isRequest
    ? `${senderName} quiere escribirte. Lee su solicitud de mensaje en la comunidad para aceptarla o ignorarla.`
    : messages.length === 1
      ? `${senderName} te ha escrito un mensaje:`
      : `${senderName} te ha escrito ${messages.length} mensajes:`
  return (
    <EmailLayout preview={intro} title={`Hola${firstName ? `, ${firstName}` : ''}`} unsubscribe={unsubscribe}>
      <Text>{intro}</Text>
      {isRequest
        ? null
        : messages.map((message, index) => (
            <Section key={index} style={{ borderLeft: '3px solid #0f766e', padding: '4px 0 4px 12px', margin: '0 0 12px' }}>
              <Text style={{ margin: '4px 0', whiteSpace: 'pre-line' }}>{message}</Text>
            </Section>
          ))}
      <EmailButton href={url}>{isRequest ? 'Ver la solicitud' : 'Responder'}</EmailButton>
    </EmailLayout>
  )
}
