import { Text } from '@react-email/components'
import { EmailButton, EmailLayout } from '~/platform/mail/layout'

export function ConfirmEmail({ firstName, url }: { firstName: string | null; url: string }) {
  return (
    <EmailLayout preview="Confirma tu email para activar tu cuenta" title="Confirma tu email">
      <Text>Hola{firstName ? ` ${firstName}` : ''}:</Text>
      <Text>Gracias por registrarte. Para activar tu cuenta y poder iniciar sesión, confirma que este email es tuyo.</Text>
      <EmailButton href={url}>Confirmar mi email</EmailButton>
      <Text>Si no has creado una cuenta, ignora este mensaje: no haremos nada más.</Text>
    </EmailLayout>
  )
}
