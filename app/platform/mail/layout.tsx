import { Body, Button, Container, Head, Heading, Html, Link, Preview, Section, Text } from '@react-email/components'
import type { ReactNode } from 'react'
import { site } from '~/site.config'

/** A non-account e-mail's way out: one link per list it belongs to, and where all preferences are. */
export interface EmailUnsubscribe {
  lists: Array<{ label: string; url: string }>
  preferencesUrl: string
}

export function EmailLayout({
  preview,
  title,
  children,
  unsubscribe,
}: {
  preview: string
  title: string
  children: ReactNode
  unsubscribe?: EmailUnsubscribe
}) {
  return (
    <Html lang="es">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: '#f4f5f7', fontFamily: 'Helvetica, Arial, sans-serif', color: '#1f2937', margin: '0' }}>
        <Container
          style={{ backgroundColor: '#ffffff', margin: '24px auto', padding: '32px 24px', maxWidth: '560px', borderRadius: '8px' }}
        >
          <Text
            style={{
              fontSize: '14px',
              fontWeight: 700,
              letterSpacing: '0.08em',
              color: '#0f766e',
              textTransform: 'uppercase',
              marginTop: '0',
            }}
          >
            {site.name}
          </Text>
          <Heading as="h1" style={{ fontSize: '22px', margin: '8px 0 16px' }}>
            {title}
          </Heading>
          {children}
          {unsubscribe ? (
            <Text style={{ fontSize: '12px', color: '#6b7280', marginTop: '32px', borderTop: '1px solid #e5e7eb', paddingTop: '16px' }}>
              Recibes este email por tus preferencias de notificación.
              {unsubscribe.lists.map((list) => (
                <span key={list.url}>
                  <br />
                  <Link href={list.url} style={{ color: '#6b7280', textDecoration: 'underline' }}>
                    Dejar de recibir: {list.label}
                  </Link>
                </span>
              ))}
              <br />
              <Link href={unsubscribe.preferencesUrl} style={{ color: '#6b7280', textDecoration: 'underline' }}>
                Gestionar mis preferencias
              </Link>
            </Text>
          ) : null}
          <Text style={{ fontSize: '12px', color: '#6b7280', marginTop: unsubscribe ? '8px' : '32px' }}>
            {site.legalName} · {site.address.full} · {site.contactEmail}
          </Text>
        </Container>
      </Body>
    </Html>
  )
}

/** A long address wraps where it must instead of widening the message past a phone's screen. */
export const LONG_ADDRESS = { wordBreak: 'break-word', overflowWrap: 'anywhere' } as const

export function EmailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: '24px 0' }}>
      <Button
        href={href}
        style={{ backgroundColor: '#0f766e', color: '#ffffff', padding: '12px 20px', borderRadius: '6px', fontWeight: 600 }}
      >
        {children}
      </Button>
      <Text style={{ fontSize: '12px', color: '#6b7280' }}>
        Si el botón no funciona, copia este enlace en tu navegador: <span style={LONG_ADDRESS}>{href}</span>
      </Text>
    </Section>
  )
}
