import { Link, Section, Text } from '@react-email/components'
import { EmailButton, EmailLayout, type EmailUnsubscribe } from '~/platform/mail/layout'

/** What happened while the member was away: one line per group of notifications, each to its place. */
export function ActivityEmail({
  firstName,
  items,
  notificationsUrl,
  unsubscribe,
}: {
  firstName: string | null
  items: Array<{ title: string; message: string; url: string; linkText: string }>
  notificationsUrl: string
  unsubscribe: EmailUnsubscribe
}) {
  const intro = items.length === 1 ? 'Tienes una novedad en la comunidad:' : `Tienes ${items.length} novedades en la comunidad:`
  return (
    <EmailLayout preview={preview(items[0]?.message ?? intro)} title={`Hola${firstName ? `, ${firstName}` : ''}`} unsubscribe={unsubscribe}>
      <Text>{intro}</Text>
      {items.map((item) => (
        <Section key={item.url + item.message} style={{ borderLeft: '3px solid #0f766e', padding: '4px 0 4px 12px', margin: '0 0 16px' }}>
          <Text style={{ margin: '0', fontSize: '12px', fontWeight: 700, color: '#0f766e', textTransform: 'uppercase' }}>{item.title}</Text>
          <Text style={{ margin: '4px 0' }}>{item.message}</Text>
          <Link href={item.url} style={{ color: '#0f766e', fontWeight: 600, fontSize: '14px' }}>
            {item.linkText} →
          </Link>
        </Section>
      ))}
      <EmailButton href={notificationsUrl}>Ver todas mis notificaciones</EmailButton>
    </EmailLayout>
  )
}

/** Inboxes show about 100 characters: cut at a word, not in one. */
function preview(text: string) {
  if (text.length <= 100) return text
  return `${text.slice(0, 100).replace(/\s+\S*$/, '')}…`
}
