import { Text } from '@react-email/components'
import { EmailButton, EmailLayout, LONG_ADDRESS } from './layout'

/**
 * A plain notice to one person: a greeting, a few paragraphs, one link, and optionally a list of
 * facts under a heading (what an applicant sent, where a sign-in came from). Admission's e-mails
 * and the account's security e-mails; none has an unsubscribe link (they answer the person's own
 * request or guard their account).
 */
export function NoticeEmail({
  title,
  firstName,
  paragraphs,
  details,
  button,
}: {
  title: string
  firstName: string | null
  paragraphs: string[]
  details?: { heading: string; rows: Array<[string, string]> }
  button?: { label: string; url: string }
}) {
  return (
    <EmailLayout preview={paragraphs[0] ?? title} title={title}>
      <Text>Hola{firstName ? ` ${firstName}` : ''}:</Text>
      {paragraphs.map((paragraph, index) => (
        <Text key={index} style={{ whiteSpace: 'pre-line' }}>
          {paragraph}
        </Text>
      ))}
      {button ? <EmailButton href={button.url}>{button.label}</EmailButton> : null}
      {details?.rows.length ? (
        <>
          <Text style={{ fontWeight: 700, marginTop: '24px' }}>{details.heading}</Text>
          {details.rows.map(([label, value]) => (
            <Text key={label} style={{ margin: '4px 0', ...LONG_ADDRESS }}>
              <strong>{label}:</strong> <span style={{ whiteSpace: 'pre-line' }}>{value}</span>
            </Text>
          ))}
        </>
      ) : null}
    </EmailLayout>
  )
}
