import type { ReactNode } from 'react'
import { B, H3, Identity, LegalDocument, link, MailLink, P, sectionsOf, td, Table, UL } from './components/legal-prose'
import { Link } from 'react-router'
import { site } from '~/site.config'
import type { Route } from './+types/privacy.route'

export const meta: Route.MetaFunction = () => [
  { title: `Política de Privacidad y Cookies · ${site.name}` },
  {
    name: 'description',
    content: `Cómo trata ${site.name} sus datos personales conforme al RGPD y la LOPDGDD, sus derechos y las cookies técnicas que utiliza el sitio.`,
  },
]

const sections = {
  responsable: '1. Responsable del tratamiento',
  datos: '2. Datos que tratamos',
  finalidades: '3. Finalidades y bases jurídicas',
  conservacion: '4. Plazos de conservación',
  visibilidad: '5. Su perfil y la comunidad',
  destinatarios: '6. Destinatarios y encargados del tratamiento',
  transferencias: '7. Transferencias internacionales',
  derechos: '8. Sus derechos',
  menores: '9. Menores de edad',
  seguridad: '10. Seguridad',
  cookies: '11. Política de cookies',
  cambios: '12. Cambios en esta política',
} as const

const { Section, Contents } = sectionsOf(sections)

const code = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.85em] break-all text-slate-900'

const privacyLink = <MailLink email={site.privacyEmail} />

const identity: [string, ReactNode][] = [
  ['Responsable', site.legalName],
  ['NIF', site.taxId],
  ['Domicilio', site.address.full],
  ['Correo de privacidad', privacyLink],
  ['Contacto general', <MailLink key="contact" email={site.contactEmail} />],
  ['Teléfono', site.phone],
]

const purposes: [string, string][] = [
  [
    'Crear y gestionar su cuenta, verificar su correo electrónico y permitirle iniciar sesión o restablecer la contraseña.',
    'Ejecución del contrato (art. 6.1.b RGPD).',
  ],
  ['Valorar su solicitud de admisión en la comunidad.', 'Aplicación de medidas precontractuales a petición suya (art. 6.1.b RGPD).'],
  [
    'Prestar la Membresía: sesiones, reservas, ofertas de empleo, foro, directorio, grabaciones e invitaciones a eventos, y enviarle los avisos propios del servicio.',
    'Ejecución del contrato (art. 6.1.b RGPD).',
  ],
  [
    'Cobrar, facturar y gestionar reembolsos, y cumplir las obligaciones contables y fiscales.',
    'Ejecución del contrato y cumplimiento de obligaciones legales (art. 6.1.b y 6.1.c RGPD).',
  ],
  [
    'Proteger la plataforma: detectar y bloquear accesos indebidos, limitar los intentos fallidos de inicio de sesión y prevenir fraudes y abusos.',
    'Interés legítimo en garantizar la seguridad de la red y de la información (art. 6.1.f y considerando 49 RGPD).',
  ],
  [
    'Enviarle comunicaciones opcionales: novedades, boletines e invitaciones a actividades no incluidas en la Membresía.',
    'Consentimiento (art. 6.1.a RGPD), que puede retirar en cualquier momento.',
  ],
  ['Atender sus consultas y el ejercicio de sus derechos.', 'Cumplimiento de obligaciones legales (art. 6.1.c RGPD).'],
  ['Formular, ejercer o defender reclamaciones.', 'Interés legítimo (art. 6.1.f RGPD).'],
]

export default function PrivacidadPage() {
  return (
    <LegalDocument title="Política de Privacidad y Cookies">
      <P>
        En {site.name} respetamos su privacidad. Esta política explica qué datos personales tratamos cuando utiliza nuestro sitio web y la
        comunidad, con qué fines, durante cuánto tiempo y qué derechos tiene, conforme al Reglamento (UE) 2016/679 (RGPD) y a la Ley
        Orgánica 3/2018, de Protección de Datos Personales y garantía de los derechos digitales (LOPDGDD). También describe las cookies que
        utiliza el sitio. Las condiciones del servicio figuran en el{' '}
        <Link to="/legal" className={link}>
          Aviso Legal y Condiciones de Uso
        </Link>
        .
      </P>

      <Contents />

      <Section id="responsable">
        <Identity rows={identity} />
        <P>
          No hemos designado un delegado de protección de datos, al no concurrir los supuestos del artículo 37 del RGPD y del artículo 34 de
          la LOPDGDD. Para cualquier cuestión sobre sus datos, escríbanos a {privacyLink}.
        </P>
      </Section>

      <Section id="datos">
        <UL>
          <li>
            <B>Datos de cuenta:</B> nombre, apellido, correo electrónico y contraseña. La contraseña se almacena cifrada mediante una
            función de hash irreversible: nunca la guardamos en texto legible y ni siquiera nosotros podemos conocerla.
          </li>
          <li>
            <B>Datos de perfil:</B> foto, empresa, cargo y biografía, además de su nombre y apellido.
          </li>
          <li>
            <B>Contenido publicado en la comunidad:</B> mensajes y comentarios en el foro y, si participa con cámara o micrófono en las
            sesiones grupales, su imagen, su voz y sus intervenciones, que quedan grabadas.
          </li>
          <li>
            <B>Datos profesionales que nos facilite:</B> su solicitud de admisión (nombre, email, teléfono si lo da, perfil de LinkedIn,
            empresa, cargo, sector, años de experiencia, el puesto al que aspira, sus respuestas y cómo nos conoció), las preguntas y
            respuestas que se crucen sobre ella y las notas y decisiones de quienes la valoran; e información que comparta en las sesiones
            individuales, como su trayectoria, sus objetivos o su currículum.
          </li>
          <li>
            <B>Datos de contratación y pago:</B> modalidad, fechas, importes, facturas y estado de los pagos. Los pagos con tarjeta los
            procesa directamente Stripe: este sitio nunca recibe ni almacena el número de su tarjeta; solo recibimos un identificador de
            cliente y datos limitados, como la marca, los cuatro últimos dígitos, la caducidad y el resultado del pago. En los pagos por
            transferencia tratamos los datos del ordenante que figuran en el justificante bancario.
          </li>
          <li>
            <B>Datos técnicos y de seguridad:</B> dirección IP, navegador y dispositivo asociados a cada sesión iniciada, y registros de
            seguridad, como los intentos fallidos de inicio de sesión, las solicitudes de restablecimiento de contraseña y los cambios
            relevantes en la cuenta.
          </li>
          <li>
            <B>Comunicaciones:</B> los mensajes que nos envíe, sus preferencias de notificación y, si activa las notificaciones en un
            dispositivo, la dirección que su navegador nos da para enviárselas, el nombre del dispositivo y las fechas de alta y del último
            envío.
          </li>
        </UL>
        <P>
          Los datos los obtenemos de usted. Los campos obligatorios son necesarios para prestarle el servicio: sin ellos no podremos crear
          su cuenta ni gestionar su Membresía. No solicitamos categorías especiales de datos (por ejemplo, de salud) y le rogamos que no las
          publique en la comunidad. Usted garantiza que los datos que nos facilita son veraces y se compromete a mantenerlos actualizados.
        </P>
      </Section>

      <Section id="finalidades">
        <Table
          label="Finalidades del tratamiento"
          caption="Finalidades del tratamiento y base jurídica de cada una"
          cols={['Finalidad', 'Base jurídica']}
        >
          {purposes.map(([purpose, basis]) => (
            <tr key={purpose}>
              <td className={td}>{purpose}</td>
              <td className={td}>{basis}</td>
            </tr>
          ))}
        </Table>
        <P>
          Los avisos propios del servicio (por ejemplo, las novedades de la comunidad) pueden desactivarse en cualquier momento. La retirada
          del consentimiento para las comunicaciones opcionales no afecta a la licitud de los envíos anteriores; cada comunicación incluye
          un enlace para darse de baja. No tomamos decisiones basadas únicamente en tratamientos automatizados, incluida la elaboración de
          perfiles, que produzcan efectos jurídicos sobre usted: las solicitudes de admisión las valoran personas.
        </P>
      </Section>

      <Section id="conservacion">
        <UL>
          <li>
            <B>Cuenta, perfil y contenidos:</B> mientras su cuenta esté activa. Si la elimina desde su perfil, se suprimen en ese momento;
            si nos pide la supresión por email, en un plazo máximo de 30 días. Lo que escribió en conversaciones compartidas se conserva
            como «Miembro eliminado», sin su nombre ni su foto, o se elimina, según elija.
          </li>
          <li>
            <B>Solicitudes de admisión:</B> las rechazadas o retiradas, y las aprobadas cuya invitación no llegó a usarse, 12 meses desde la
            decisión o la retirada (un proceso diario las suprime con su historial); las que siguen abiertas, hasta que se decidan o las
            retire desde el enlace de su email; la aprobada con la que creó su cuenta, mientras la cuenta exista (se suprime con ella).
          </li>
          <li>
            <B>Contratación y facturación:</B> durante los plazos legales: seis años para la documentación mercantil (artículo 30 del Código
            de Comercio) y cuatro para la tributaria (artículo 66 de la Ley General Tributaria).
          </li>
          <li>
            <B>Sesiones iniciadas:</B> mientras la sesión esté abierta, con un máximo de 30 días. Las ve, con el navegador, el sistema y una
            dirección aproximada, en su perfil, donde puede cerrarlas.
          </li>
          <li>
            <B>Navegadores y sistemas desde los que ha iniciado sesión</B> (por ejemplo, «Chrome en Windows», sin la dirección), para
            avisarle por email de un inicio de sesión desde uno nuevo: mientras su cuenta exista.
          </li>
          <li>
            <B>Registros de seguridad y de acciones:</B> 12 meses (un proceso diario suprime los anteriores), salvo que sean necesarios para
            investigar un incidente concreto.
          </li>
          <li>
            <B>Moderación:</B> los informes que envía, mientras su cuenta exista; las decisiones del equipo sobre lo que publica o sobre su
            cuenta (ocultar, eliminar, avisos, suspensiones), con su motivo, mientras su cuenta exista, y después sin nada que le
            identifique. Ambos están en la descarga de sus datos; quién decidió no se muestra a los miembros.
          </li>
          <li>
            <B>Mensajes privados:</B> mientras la cuenta de quien los escribió exista. Las conversaciones no son visibles para ningún
            administrador: el equipo de moderación solo lee un mensaje que se le informa y los cinco anteriores. Cada parte tiene la
            conversación en la descarga de sus datos; si elimina su cuenta, sus mensajes se muestran a la otra persona como «Miembro
            eliminado», o se borran si pide eliminarlo todo.
          </li>
          <li>
            <B>Grabaciones de sesiones:</B> mientras formen parte del archivo de la comunidad. Puede pedirnos que eliminemos su
            intervención, y atenderemos la solicitud conforme a sus derechos de supresión y oposición.
          </li>
          <li>
            <B>Comunicaciones opcionales:</B> hasta que retire su consentimiento.
          </li>
        </UL>
        <P>
          Transcurridos estos plazos, y mientras puedan derivarse responsabilidades, los datos se conservan bloqueados conforme al artículo
          32 de la LOPDGDD, a disposición exclusiva de jueces, tribunales y autoridades competentes, y después se suprimen.
        </P>
      </Section>

      <Section id="visibilidad">
        <P>
          La comunidad es privada: el directorio, el foro y las grabaciones solo son accesibles para los miembros con sesión iniciada.
          Cuando su perfil está completo (foto, nombre, apellido, empresa y cargo), aparece en el directorio de miembros, junto con su
          biografía si la ha añadido. Los demás miembros pueden ver esos datos y los contenidos que publique, identificados con su nombre y
          su foto. Desde su perfil puede dejar de aparecer en el directorio y ocultar a los demás miembros su empresa y su cargo. Este
          tratamiento forma parte esencial del servicio de networking que contrata, por lo que su base jurídica es la ejecución del
          contrato.
        </P>
        <P>
          Nunca mostramos a otros miembros su contraseña, sus datos de pago ni sus datos técnicos o de seguridad. Puede modificar su perfil
          en cualquier momento. Aunque los miembros se comprometen a mantener la confidencialidad de lo que se comparte en la comunidad, le
          recomendamos no publicar información que no desee que conozcan.
        </P>
      </Section>

      <Section id="destinatarios">
        <P>No vendemos sus datos ni los cedemos a terceros con fines comerciales. Solo acceden a ellos:</P>
        <UL>
          <li>
            <B>Stripe</B> (Stripe Payments Europe, Ltd., Irlanda, y entidades de su grupo, como Stripe, Inc., en EE. UU.), para procesar los
            pagos con tarjeta. Actúa como encargado del tratamiento y, en lo relativo a la prevención del fraude y a sus obligaciones
            regulatorias, como responsable independiente.
          </li>
          <li>
            <B>Mux</B> (Mux, Inc., EE. UU.), para alojar y reproducir los vídeos de las sesiones. Trata datos técnicos de reproducción, como
            la dirección IP, el dispositivo y los eventos de reproducción.
          </li>
          <li>
            <B>Nuestro proveedor de alojamiento y de correo electrónico</B>, que aloja la plataforma y su base de datos y envía los correos
            del servicio (confirmación de cuenta, restablecimiento de contraseña y avisos).
          </li>
          <li>
            <B>El servicio de notificaciones de su navegador</B> (Google, Mozilla, Apple o Microsoft, según el navegador), solo si activa
            las notificaciones en un dispositivo: recibe cada aviso cifrado, sin poder leerlo, para hacerlo llegar a ese dispositivo. Los
            avisos nunca incluyen el texto de sus mensajes privados.
          </li>
          <li>
            <B>Las herramientas del cuestionario de admisión y de reserva de sesiones</B>, cuando usted las utiliza.
          </li>
          <li>
            <B>El headhunter que le atiende</B>, que accede a la información que usted comparte en su sesión individual solo para prestarle
            orientación, por cuenta de {site.legalName} y con deber de confidencialidad. No la utilizará en otros procesos de selección sin
            su consentimiento expreso.
          </li>
          <li>
            Entidades bancarias (transferencias y reembolsos), asesores fiscales y contables, la Administración Tributaria y los juzgados,
            tribunales y autoridades, cuando lo exija la ley.
          </li>
        </UL>
        <P>
          Todos los encargados del tratamiento han suscrito con nosotros el contrato previsto en el artículo 28 del RGPD y solo tratan los
          datos siguiendo nuestras instrucciones. Puede solicitar la relación actualizada de proveedores en {privacyLink}.
        </P>
      </Section>

      <Section id="transferencias">
        <P>
          Stripe y Mux pueden tratar datos en Estados Unidos. Estas transferencias se amparan en la Decisión de Ejecución (UE) 2023/1795 de
          la Comisión, relativa al Marco de Privacidad de Datos UE-EE. UU. (Data Privacy Framework), respecto de las entidades certificadas
          y, en su defecto, en las cláusulas contractuales tipo aprobadas por la Decisión de Ejecución (UE) 2021/914, junto con las medidas
          complementarias necesarias. Procuramos que el resto de proveedores traten los datos dentro del Espacio Económico Europeo; si no
          fuera así, aplicaríamos las mismas garantías. Puede solicitar información sobre ellas en {privacyLink}.
        </P>
      </Section>

      <Section id="derechos">
        <P>En cualquier momento puede ejercer, de forma gratuita, los siguientes derechos:</P>
        <UL>
          <li>
            <B>Acceso:</B> saber si tratamos sus datos y obtener una copia. Desde su perfil, «Descargar mis datos» le envía por email un
            enlace a un archivo ZIP con todo lo que guardamos sobre usted (un JSON legible y sus archivos); el enlace funciona 48 horas,
            solo con su sesión iniciada, y después borramos el archivo. Puede pedirlo una vez al día.
          </li>
          <li>
            <B>Rectificación:</B> corregir datos inexactos o incompletos; muchos puede editarlos usted desde su perfil.
          </li>
          <li>
            <B>Supresión:</B> pedir que eliminemos sus datos cuando ya no sean necesarios, salvo obligación legal de conservarlos. Desde su
            perfil, «Eliminar mi cuenta» (con su contraseña y, si la usa, su verificación en dos pasos) cancela su suscripción y borra al
            instante su cuenta, su perfil, su foto, sus likes, sus inscripciones, sus notificaciones y los dispositivos donde las activó,
            sus sesiones y su solicitud de admisión. Lo que escribió en conversaciones compartidas se conserva como «Miembro eliminado», sin
            su nombre ni su foto, salvo que elija eliminarlo también. Solo queda, durante 12 meses, la línea del registro de acciones que
            deja constancia de la eliminación, identificada por un código interno; las facturas las conserva Stripe durante el plazo que
            exige la ley fiscal.
          </li>
          <li>
            <B>Oposición:</B> oponerse a los tratamientos basados en nuestro interés legítimo, por motivos relacionados con su situación
            particular.
          </li>
          <li>
            <B>Limitación:</B> pedir que suspendamos el tratamiento mientras se resuelve una reclamación o una impugnación de la exactitud
            de los datos.
          </li>
          <li>
            <B>Portabilidad:</B> recibir los datos que nos facilitó en un formato estructurado y de uso común (el mismo archivo de
            «Descargar mis datos»), o que los transmitamos a otro responsable.
          </li>
          <li>
            <B>Retirar el consentimiento</B> y <B>no ser objeto de decisiones individuales automatizadas</B>.
          </li>
        </UL>
        <P>
          Para ejercerlos, escríbanos a {privacyLink} indicando el derecho que desea ejercer. Si tuviéramos dudas razonables sobre su
          identidad, podremos pedirle la información adicional estrictamente necesaria para confirmarla. Le responderemos en el plazo de un
          mes, prorrogable otros dos meses en casos complejos, de lo que le informaríamos (artículo 12.3 del RGPD).
        </P>
        <P>
          Si considera que no hemos atendido correctamente sus derechos o que el tratamiento infringe la normativa, puede presentar una
          reclamación ante la Agencia Española de Protección de Datos (AEPD), C/ Jorge Juan, 6, 28001 Madrid,{' '}
          <a href="https://www.aepd.es" className={link} rel="noopener noreferrer" target="_blank">
            www.aepd.es
          </a>
          .
        </P>
      </Section>

      <Section id="menores">
        <P>
          La comunidad está dirigida exclusivamente a profesionales mayores de 18 años. No recogemos de forma consciente datos de menores de
          edad: si detectamos que un menor ha creado una cuenta, la eliminaremos junto con sus datos. Si es usted madre, padre o tutor y
          cree que un menor nos ha facilitado datos, escríbanos a {privacyLink}.
        </P>
      </Section>

      <Section id="seguridad">
        <P>Aplicamos las medidas técnicas y organizativas apropiadas al riesgo, conforme al artículo 32 del RGPD, entre ellas:</P>
        <UL>
          <li>Conexiones cifradas (HTTPS) en todo el sitio.</li>
          <li>Contraseñas almacenadas cifradas mediante una función de hash, nunca en texto legible.</li>
          <li>Cookie de sesión inaccesible desde JavaScript (httpOnly) y marcada como segura.</li>
          <li>Límites a los intentos de inicio de sesión y registro de los intentos fallidos para detectar ataques.</li>
          <li>Acceso a los datos restringido al personal autorizado, según su función, y copias de seguridad.</li>
          <li>Pagos con tarjeta procesados por Stripe, proveedor certificado conforme al estándar PCI DSS.</li>
        </UL>
        <P>
          Si se produjera una violación de la seguridad de los datos, la notificaremos a la AEPD y, cuando proceda, a las personas
          afectadas, conforme a los artículos 33 y 34 del RGPD. Le recomendamos usar una contraseña robusta y exclusiva para {site.name} y
          no compartirla con nadie.
        </P>
      </Section>

      <Section id="cookies">
        <H3>¿Qué son las cookies?</H3>
        <P>
          Las cookies son pequeños archivos que un sitio web guarda en su navegador para recordar información entre una página y otra, por
          ejemplo, que ya ha iniciado sesión.
        </P>
        <H3>Cookies que utilizamos</H3>
        <P>Este sitio utiliza únicamente cookies propias de carácter técnico, estrictamente necesarias:</P>
        <Table label="Cookies" caption={`Cookies utilizadas en ${site.name}`} cols={['Cookie', 'Finalidad', 'Duración', 'Tipo']}>
          <tr>
            <th scope="row" className={td + ' font-medium'}>
              <code className={code}>better-auth.session_token</code> (con el prefijo <code className={code}>__Secure-</code> en conexiones
              seguras)
            </th>
            <td className={td}>
              Mantener su sesión iniciada de forma segura. Es una cookie firmada e inaccesible desde JavaScript (httpOnly).
            </td>
            <td className={td}>Hasta 30 días; se elimina al cerrar sesión.</td>
            <td className={td}>Propia, técnica</td>
          </tr>
          <tr>
            <th scope="row" className={td + ' font-medium'}>
              <code className={code}>toast</code>
            </th>
            <td className={td}>
              Mostrar un mensaje de confirmación tras una acción, por ejemplo, al guardar su perfil. Es firmada y httpOnly.
            </td>
            <td className={td}>Sesión: se elimina en cuanto se muestra el mensaje.</td>
            <td className={td}>Propia, técnica</td>
          </tr>
        </Table>
        <H3>Por qué no le mostramos un aviso de consentimiento</H3>
        <P>
          De acuerdo con el artículo 22.2 de la Ley 34/2002 (LSSI-CE), y según recoge la Guía sobre el uso de las cookies de la AEPD, las
          cookies estrictamente necesarias para prestar un servicio expresamente solicitado por el usuario están exentas del deber de
          obtener su consentimiento. No utilizamos cookies analíticas, publicitarias, de personalización ni de seguimiento, propias o de
          terceros, y el reproductor de vídeo de las grabaciones está configurado para no instalar cookies en su navegador. Por eso no le
          pedimos consentimiento. Si en el futuro incorporásemos cookies no exentas, se lo solicitaríamos antes de instalarlas y
          actualizaríamos esta política.
        </P>
        <H3>Contenidos de terceros</H3>
        <P>
          Algunos contenidos, como el reproductor de pódcast, proceden de terceros. Para no instalar cookies ajenas sin su permiso, solo se
          cargan cuando usted lo solicita pulsando el botón correspondiente; hasta entonces no se establece ninguna conexión con el tercero.
          Al activarlos, el proveedor puede tratar su dirección IP e instalar sus propias cookies conforme a su política de privacidad. Los
          enlaces externos, como el cuestionario de admisión o la página de reservas, llevan a sitios de terceros con sus propias políticas.
        </P>
        <H3>Cómo gestionar o eliminar las cookies</H3>
        <P>
          Puede consultar, bloquear o eliminar las cookies desde la configuración de su navegador (Chrome, Firefox, Safari, Edge u otros).
          Tenga en cuenta que, si bloquea la cookie de sesión, no podrá iniciar sesión ni acceder a las áreas privadas del sitio.
        </P>
      </Section>

      <Section id="cambios">
        <P>
          Podemos actualizar esta política para adaptarla a cambios normativos o del servicio; la fecha de la última actualización figura al
          principio de esta página. Si los cambios son relevantes, se lo comunicaremos por correo electrónico antes de que surtan efecto.
        </P>
      </Section>
    </LegalDocument>
  )
}
