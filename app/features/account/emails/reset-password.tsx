import { Text } from '@react-email/components'
import { EmailButton, EmailLayout } from '~/platform/mail/layout'

export function ResetPasswordEmail({ firstName, url }: { firstName: string | null; url: string }) {
  return (
    <EmailLayout preview="Restablece tu contraseña" title="Restablece tu contraseña">
      <Text>Hola{firstName ? ` ${firstName}` : ''}:</Text>
      <Text>Hemos recibido una solicitud para restablecer la contraseña de tu cuenta. El enlace caduca en una hora.</Text>
      <EmailButton href={url}>Elegir una contraseña nueva</EmailButton>
      <Text>Si no lo has pedido tú, ignora este mensaje: tu contraseña actual sigue siendo válida.</Text>
    </EmailLayout>
  )
}
