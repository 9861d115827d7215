import { Body, Button, Container, Head, Heading, Html, Preview, Section, Text } from '@react-email/components'
import type { ReactNode } from 'react'
import { site } from '~/site.config'

export function EmailLayout({ preview, title, children }: { preview: string; title: string; children: ReactNode }) {
  return (
    <Html lang="es">
      <Head />
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: '#f4f5f7', fontFamily: 'Helvetica, Arial, sans-serif', color: '#1f2937' }}>
        <Container style={{ backgroundColor: '#ffffff', margin: '24px auto', padding: '32px', maxWidth: '560px', borderRadius: '8px' }}>
          <Text style={{ fontSize: '14px', fontWeight: 700, letterSpacing: '0.08em', color: '#0f766e', textTransform: 'uppercase' }}>
            {site.name}
          </Text>
          <Heading as="h1" style={{ fontSize: '22px', margin: '8px 0 16px' }}>
            {title}
          </Heading>
          {children}
          <Text style={{ fontSize: '12px', color: '#6b7280', marginTop: '32px' }}>
            {site.legalName} · {site.address.full} · {site.contactEmail}
          </Text>
        </Container>
      </Body>
    </Html>
  )
}

export function EmailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Section style={{ margin: '24px 0' }}>
      <Button
        href={href}
        style={{ backgroundColor: '#0f766e', color: '#ffffff', padding: '12px 20px', borderRadius: '6px', fontWeight: 600 }}
      >
        {children}
      </Button>
      <Text style={{ fontSize: '12px', color: '#6b7280' }}>Si el botón no funciona, copia este enlace en tu navegador: {href}</Text>
    </Section>
  )
}
