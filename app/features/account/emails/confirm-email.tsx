import { Text } from '@react-email/components'
import { EmailButton, EmailLayout } from '~/platform/mail/layout'

export function ConfirmEmail({ firstName, url, changing = false }: { firstName: string | null; url: string; changing?: boolean }) {
  if (changing) {
    return (
      <EmailLayout preview="Confirma tu nuevo email" title="Confirma tu nuevo email">
        <Text>Hola{firstName ? ` ${firstName}` : ''}:</Text>
        <Text>Has pedido usar este email en tu cuenta. Para terminar el cambio, confirma que es tuyo.</Text>
        <EmailButton href={url}>Confirmar mi nuevo email</EmailButton>
        <Text>Si no lo has pedido tú, ignora este mensaje: el email de la cuenta no cambiará.</Text>
      </EmailLayout>
    )
  }
  return (
    <EmailLayout preview="Confirma tu email para activar tu cuenta" title="Confirma tu email">
      <Text>Hola{firstName ? ` ${firstName}` : ''}:</Text>
      <Text>Gracias por registrarte. Para activar tu cuenta y poder iniciar sesión, confirma que este email es tuyo.</Text>
      <EmailButton href={url}>Confirmar mi email</EmailButton>
      <Text>Si no has creado una cuenta, ignora este mensaje: no haremos nada más.</Text>
    </EmailLayout>
  )
}
