import { Text } from '@react-email/components'
import { EmailButton, EmailLayout, LONG_ADDRESS } from '~/platform/mail/layout'

/**
 * Every e-mail of admission (received, more information asked, approved, rejected, waitlisted):
 * a greeting, a few paragraphs, optionally what the applicant sent, and one link. Account e-mails:
 * no unsubscribe (they answer the applicant's own request).
 */
export function AdmissionEmail({
  title,
  firstName,
  paragraphs,
  answers,
  button,
}: {
  title: string
  firstName: string
  paragraphs: string[]
  answers?: Array<[string, string]>
  button?: { label: string; url: string }
}) {
  return (
    <EmailLayout preview={paragraphs[0] ?? title} title={title}>
      <Text>Hola {firstName}:</Text>
      {paragraphs.map((paragraph, index) => (
        <Text key={index} style={{ whiteSpace: 'pre-line' }}>
          {paragraph}
        </Text>
      ))}
      {button ? <EmailButton href={button.url}>{button.label}</EmailButton> : null}
      {answers?.length ? (
        <>
          <Text style={{ fontWeight: 700, marginTop: '24px' }}>Lo que nos enviaste</Text>
          {answers.map(([label, value]) => (
            <Text key={label} style={{ margin: '4px 0', ...LONG_ADDRESS }}>
              <strong>{label}:</strong> <span style={{ whiteSpace: 'pre-line' }}>{value}</span>
            </Text>
          ))}
        </>
      ) : null}
    </EmailLayout>
  )
}
