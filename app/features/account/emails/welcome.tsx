import { Text } from '@react-email/components'
import { EmailButton, EmailLayout } from '~/platform/mail/layout'

export function WelcomeEmail({ firstName, profileUrl }: { firstName: string | null; profileUrl: string }) {
  return (
    <EmailLayout preview="Bienvenido a la comunidad" title={`¡Bienvenido${firstName ? `, ${firstName}` : ''}!`}>
      <Text>Ya formas parte de la comunidad de profesionales de pharma, biotech y medtech que aspiran a la alta dirección.</Text>
      <Text>
        El primer paso es completar tu perfil: foto profesional, nombre, apellido, empresa actual y cargo. Con él completo podrás entrar en
        la comunidad y los demás miembros podrán encontrarte.
      </Text>
      <EmailButton href={profileUrl}>Completar mi perfil</EmailButton>
    </EmailLayout>
  )
}
