import { Heading, Link, Section, Text } from '@react-email/components'
import { EmailButton, EmailLayout, type EmailUnsubscribe } from '~/platform/mail/layout'

const sectionTitle = { fontSize: '16px', margin: '24px 0 8px', color: '#111827' }
const itemStyle = { margin: '0 0 10px' }
const linkStyle = { color: '#0f766e', fontWeight: 600 }
const detail = { color: '#6b7280', fontSize: '13px' }

/** The daily or weekly digest: what moved in the community since the last one. */
export function DigestEmail({
  firstName,
  daily,
  posts,
  sessions,
  events,
  communityUrl,
  unsubscribe,
}: {
  firstName: string | null
  daily: boolean
  posts: Array<{ title: string; comments: number; url: string }>
  sessions: Array<{ title: string; ceo: string; url: string }>
  events: Array<{ title: string; when: string; type: string; url: string }>
  communityUrl: string
  unsubscribe: EmailUnsubscribe
}) {
  const since = daily ? 'desde ayer' : 'esta semana'
  const present = [posts.length && 'lo más comentado', sessions.length && 'nuevas sesiones', events.length && 'próximos eventos'].filter(
    (part): part is string => Boolean(part),
  )
  const summary = present.length > 1 ? `${present.slice(0, -1).join(', ')} y ${present.at(-1)}` : (present[0] ?? '')
  return (
    <EmailLayout
      preview={`${summary.charAt(0).toUpperCase()}${summary.slice(1)} ${since}`}
      title={firstName ? `Hola, ${firstName}: esto es lo nuevo ${since}` : `Esto es lo nuevo ${since}`}
      unsubscribe={unsubscribe}
    >
      {posts.length ? (
        <Section>
          <Heading as="h2" style={sectionTitle}>
            Lo más activo en la comunidad
          </Heading>
          {posts.map((post) => (
            <Text key={post.url} style={itemStyle}>
              <Link href={post.url} style={linkStyle}>
                {post.title}
              </Link>
              <br />
              <span style={detail}>{post.comments === 1 ? '1 comentario nuevo' : `${post.comments} comentarios nuevos`}</span>
            </Text>
          ))}
        </Section>
      ) : null}
      {sessions.length ? (
        <Section>
          <Heading as="h2" style={sectionTitle}>
            Nuevas sesiones CEO
          </Heading>
          {sessions.map((session) => (
            <Text key={session.url} style={itemStyle}>
              <Link href={session.url} style={linkStyle}>
                {session.title}
              </Link>
              <br />
              <span style={detail}>{session.ceo}</span>
            </Text>
          ))}
        </Section>
      ) : null}
      {events.length ? (
        <Section>
          <Heading as="h2" style={sectionTitle}>
            Próximos eventos
          </Heading>
          {events.map((event) => (
            <Text key={event.url} style={itemStyle}>
              <Link href={event.url} style={linkStyle}>
                {event.title}
              </Link>
              <br />
              <span style={detail}>
                {event.type} · {event.when}
              </span>
            </Text>
          ))}
        </Section>
      ) : null}
      <EmailButton href={communityUrl}>Ir a la comunidad</EmailButton>
    </EmailLayout>
  )
}
