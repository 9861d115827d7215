import type { ReactNode } from 'react'
import { B, H3, Identity, LegalDocument, link, MailLink, P, sectionsOf, td, Table, UL } from './components/legal-prose'
import { Link } from 'react-router'
import { pricing } from './content'
import { site } from '~/site.config'
import type { Route } from './+types/legal.route'

export const meta: Route.MetaFunction = () => [
  { title: `Aviso Legal y Condiciones de Uso · ${site.name}` },
  {
    name: 'description',
    content: `Aviso legal, condiciones de uso y condiciones de contratación de la membresía de ${site.name}: titular, precio, cancelación, reembolsos y derecho de desistimiento.`,
  },
]

const sections = {
  titular: '1. Datos identificativos del titular',
  objeto: '2. Objeto y aceptación',
  uso: '3. Condiciones de uso del sitio web',
  membresia: '4. La membresía: servicios incluidos',
  precio: '5. Precio, pago y renovación',
  contratacion: '6. Proceso de contratación',
  cancelacion: '7. Cancelación, pausa y reembolsos',
  desistimiento: '8. Derecho de desistimiento',
  normas: '9. Obligaciones del miembro y normas de la comunidad',
  propiedad: '10. Propiedad intelectual e industrial',
  responsabilidad: '11. Responsabilidad',
  datos: '12. Protección de datos',
  modificaciones: '13. Modificación de las condiciones',
  ley: '14. Ley aplicable y jurisdicción',
  litigios: '15. Reclamaciones y resolución de litigios',
} as const

const { Section, Contents } = sectionsOf(sections)

const contactLink = <MailLink email={site.contactEmail} />

const identity: [string, ReactNode][] = [
  ['Titular', site.legalName],
  ['Nombre comercial', site.name],
  ['NIF', site.taxId],
  ['Domicilio social', site.address.full],
  ['Datos registrales', `Sociedad inscrita en el ${site.registry}`],
  ['Correo electrónico', contactLink],
  [
    'Teléfono',
    <a key="tel" href={`tel:${site.phone.replace(/\s+/g, '')}`} className={link}>
      {site.phone}
    </a>,
  ],
]

export default function LegalPage() {
  return (
    <LegalDocument title="Aviso Legal y Condiciones de Uso">
      <P>
        Este documento recoge la información legal del titular de {site.name}, las condiciones que rigen el uso del sitio web y las
        condiciones de contratación de la membresía. Le recomendamos leerlo con atención junto con nuestra{' '}
        <Link to="/privacidad" className={link}>
          Política de Privacidad y Cookies
        </Link>
        .
      </P>

      <Contents />

      <Section id="titular">
        <P>
          En cumplimiento del artículo 10 de la Ley 34/2002, de 11 de julio, de Servicios de la Sociedad de la Información y de Comercio
          Electrónico (LSSI-CE), se facilitan los datos identificativos del titular de este sitio web:
        </P>
        <Identity rows={identity} />
        <P>
          En lo sucesivo, «{site.name}», «nosotros» o «el titular» se refieren a {site.legalName}.
        </P>
      </Section>

      <Section id="objeto">
        <P>
          Las presentes condiciones (las «Condiciones») regulan (i) el acceso y la navegación por este sitio web (el «Sitio»), y (ii) la
          contratación y el uso de la membresía de pago de la comunidad profesional {site.name} (la «Membresía»), dirigida a profesionales
          de los sectores farmacéutico, biotecnológico y de tecnología sanitaria. Quien accede al Sitio tiene la condición de «Usuario»;
          quien contrata la Membresía, la de «Miembro».
        </P>
        <P>
          El acceso al Sitio implica la aceptación de estas Condiciones en la versión publicada en cada momento. La contratación de la
          Membresía requiere, además, su aceptación expresa. Las Condiciones tienen el carácter de condiciones generales de la contratación
          conforme a la Ley 7/1998, de 13 de abril, y se ponen a disposición del Usuario antes de contratar para que pueda leerlas,
          almacenarlas e imprimirlas.
        </P>
      </Section>

      <Section id="uso">
        <P>
          El Usuario se compromete a utilizar el Sitio de conformidad con la ley, la buena fe, el orden público y estas Condiciones. En
          particular, se compromete a no:
        </P>
        <UL>
          <li>Introducir virus o código malicioso, ni realizar acciones que puedan dañar, inutilizar o sobrecargar el Sitio.</li>
          <li>
            Intentar acceder a áreas restringidas o a cuentas de terceros, ni eludir las medidas de seguridad, incluidas las que limitan los
            intentos de inicio de sesión.
          </li>
          <li>Extraer de forma automatizada o masiva datos del Sitio, en especial del directorio de miembros.</li>
          <li>Suplantar la identidad de otra persona o facilitar datos falsos, inexactos o de terceros sin autorización.</li>
        </UL>
        <P>
          Para acceder a las áreas privadas es necesario crear una cuenta y ser mayor de 18 años. La cuenta es personal e intransferible; el
          Usuario debe custodiar su contraseña y comunicarnos de inmediato cualquier uso no autorizado. {site.name} podrá suspender el
          acceso de quien incumpla estas Condiciones.
        </P>
      </Section>

      <Section id="membresia">
        <P>La Membresía tiene carácter anual y, mientras está activa, da derecho a:</P>
        <UL>
          <li>
            Una <B>sesión grupal mensual online de 60 minutos con un CEO invitado</B>, de carácter participativo, que se graba para su
            posterior visionado por los miembros.
          </li>
          <li>
            Una <B>sesión individual mensual de 30 minutos con un headhunter</B> especializado en life sciences.
          </li>
          <li>Ofertas de empleo filtradas por área: ventas, médico, marketing y acceso al mercado.</li>
          <li>Acceso al foro y a la comunidad privada de miembros, incluido el directorio de miembros.</li>
          <li>Acceso a las grabaciones de las sesiones grupales.</li>
          <li>Invitaciones VIP a los eventos presenciales «CEO&apos;s Night».</li>
        </UL>
        <P>
          El plan anual incluye, por tanto, 12 sesiones grupales y 12 sesiones individuales. El calendario de sesiones grupales se anuncia
          con antelación en la plataforma; si una sesión no pudiera celebrarse en la fecha prevista, se reprogramará sin que se reduzca el
          número de sesiones incluidas. Las sesiones individuales se reservan a través de la herramienta de reservas indicada en la
          plataforma.
        </P>
        <P>
          Las ofertas de empleo proceden de empresas y seleccionadores terceros; {site.name} las filtra y las pone a disposición de los
          miembros, pero no actúa como agencia de colocación ni interviene en los procesos de selección. Las invitaciones a los eventos
          «CEO&apos;s Night» están sujetas al aforo disponible; los gastos de desplazamiento y alojamiento no están incluidos.
        </P>
        <H3>Sin garantía de resultados</H3>
        <P>
          La Membresía es un servicio de networking, orientación e información profesional. {site.name} no garantiza la obtención de
          resultados profesionales concretos, como un empleo, un ascenso, una mejora retributiva o la selección en un proceso, que dependen
          de factores ajenos a su control. Las opiniones de los ponentes invitados no constituyen asesoramiento profesional.
        </P>
      </Section>

      <Section id="precio">
        <UL>
          <li>
            <B>Precio de lanzamiento (early bird):</B> {pricing.plans.annual.price} {pricing.plans.annual.period}, IVA incluido, en un único
            pago anual; o {pricing.plans.monthly.price} {pricing.plans.monthly.period}, IVA incluido, en pagos mensuales. Todos los precios
            se expresan en euros e incluyen los impuestos aplicables.
          </li>
          <li>
            <B>Formas de pago:</B> tarjeta bancaria, procesada de forma segura por nuestro proveedor de pagos Stripe (el Sitio nunca
            almacena los números de tarjeta), o transferencia bancaria. En el pago por transferencia, la Membresía se activa al recibir el
            importe.
          </li>
          <li>
            <B>Renovación:</B> la Membresía se renueva al final de cada periodo (anual o mensual, según la modalidad elegida) por otro de
            igual duración, salvo que el Miembro la cancele antes. En la modalidad anual avisaremos por correo electrónico antes de la
            renovación. En el pago por transferencia, la renovación requiere un nuevo pago, que solicitaremos con antelación.
          </li>
          <li>
            <B>Cambios de precio:</B> el precio de lanzamiento se aplica a las altas realizadas mientras esté vigente la oferta. Cualquier
            cambio de precio para renovaciones se comunicará con al menos 30 días de antelación, y el Miembro que no lo acepte podrá
            cancelar antes de que se aplique.
          </li>
          <li>
            <B>Factura:</B> se emite factura electrónica por cada pago. El Miembro puede solicitarla en papel en cualquier momento, sin
            coste.
          </li>
        </UL>
      </Section>

      <Section id="contratacion">
        <P>
          De acuerdo con el artículo 27 de la LSSI-CE y el artículo 98 del texto refundido de la Ley General para la Defensa de los
          Consumidores y Usuarios (TRLGDCU), se informa de los trámites para contratar:
        </P>
        <ol className="mt-4 list-decimal space-y-2 pl-6 leading-7 text-slate-700">
          <li>Cuando así se indique en el Sitio, el interesado cumplimenta el cuestionario de admisión.</li>
          <li>Crea su cuenta con nombre, apellido, correo electrónico y contraseña, y confirma su correo electrónico.</li>
          <li>
            Elige la modalidad (anual o mensual) y el medio de pago. Antes de confirmar se muestra un resumen con el precio final; hasta ese
            momento puede corregir cualquier error en los datos introducidos.
          </li>
          <li>
            Acepta expresamente estas Condiciones y confirma el pedido mediante un botón que indica claramente que implica una obligación de
            pago.
          </li>
          <li>
            Recibe por correo electrónico, en un plazo máximo de 24 horas, la confirmación de la contratación, con la información sobre el
            derecho de desistimiento.
          </li>
        </ol>
        <P>
          El contrato se formaliza en español. {site.name} archiva el documento electrónico de la contratación, y el Miembro puede solicitar
          una copia en {contactLink}. Para acceder a la comunidad es necesario completar el perfil profesional (foto, nombre, apellido,
          empresa actual y cargo), que será visible para los demás miembros.
        </P>
      </Section>

      <Section id="cancelacion">
        <P>
          La Membresía <B>no tiene permanencia mínima</B>: el Miembro puede cancelarla en cualquier momento desde su cuenta o escribiendo a{' '}
          {contactLink}. La cancelación detiene los cobros futuros y surte efecto en la fecha de recepción de la solicitud o en la posterior
          que indique el Miembro; a partir de entonces finaliza el acceso a la plataforma. Los reembolsos se calculan así:
        </P>
        <Table
          label="Reembolsos"
          caption="Reembolso según el momento de la cancelación"
          cols={['Momento de la cancelación', 'Reembolso']}
          narrow
        >
          <tr>
            <th scope="row" className={td + ' font-medium text-slate-900'}>
              Hasta el día 15 (incluido)
            </th>
            <td className={td}>100 % del importe abonado, sin necesidad de justificación y aunque ya se hayan utilizado servicios.</td>
          </tr>
          <tr>
            <th scope="row" className={td + ' font-medium text-slate-900'}>
              Desde el día 16 en adelante
            </th>
            <td className={td}>
              Parte proporcional no utilizada del periodo abonado. Se aplica igualmente entre los días 16 y 30 y en cualquier momento
              posterior.
            </td>
          </tr>
        </Table>
        <P>
          Los días son naturales y se cuentan desde la fecha de contratación o, si fuera posterior, desde la activación de la Membresía. La
          garantía de reembolso íntegro se aplica a los primeros 15 días de la primera contratación. La parte no utilizada se calcula
          multiplicando el importe abonado por el periodo en curso por los días que quedan de ese periodo y dividiendo entre sus días
          totales. Por ejemplo, un Miembro con pago anual de 900 € que cancela el día 100 recibe 900 € × 265 / 365 = 653,42 €. En el pago
          mensual, el cálculo se hace sobre el mes en curso.
        </P>
        <H3>Pausa de la membresía</H3>
        <P>
          Como alternativa a la cancelación, el Miembro puede pausar su Membresía en cualquier momento. Durante la pausa no se prestan los
          servicios en directo ni el acceso al foro y a las ofertas, pero el Miembro conserva el acceso al contenido al que ya asistió o que
          ya descargó, y se le reembolsa, con el mismo cálculo prorrateado, la parte no usada de la anualidad en curso (o del mes en curso,
          en el pago mensual). Si la pausa se solicita dentro de los primeros 15 días, el reembolso es del 100 %. El Miembro puede reanudar
          la Membresía cuando lo desee; se iniciará entonces un nuevo periodo de pago en las condiciones vigentes, que se le comunicarán
          antes.
        </P>
        <P>
          Los reembolsos se realizan por el mismo medio de pago utilizado, sin gastos para el Miembro, en un plazo máximo de 14 días
          naturales desde la solicitud. Si {site.name} dejara de prestar el servicio, reembolsará la parte proporcional no disfrutada.
        </P>
      </Section>

      <Section id="desistimiento">
        <P>
          Si el Miembro tiene la condición de consumidor, dispone de un plazo de 14 días naturales desde la celebración del contrato para
          desistir de él sin necesidad de justificación y sin penalización, conforme a los artículos 102 y 103 y concordantes del TRLGDCU
          (Real Decreto Legislativo 1/2007, de 16 de noviembre). Para ejercerlo basta con una declaración inequívoca enviada a {contactLink}{' '}
          o por correo postal a {site.address.full}. Puede utilizar el modelo de formulario que figura a continuación, aunque no es
          obligatorio.
        </P>
        <P>
          <B>Relación con la garantía de reembolso.</B> La garantía comercial de reembolso del 100 % durante los primeros 15 días (apartado
          7) es más amplia que el derecho legal de desistimiento y lo engloba: quien desista o cancele en ese plazo recibirá el reembolso
          íntegro aunque haya pedido que el servicio comience de inmediato y haya asistido ya a sesiones, visto grabaciones o descargado
          contenidos. Por ello, {site.name} no exigirá el importe proporcional previsto en el artículo 108.3 del TRLGDCU ni invocará las
          excepciones del artículo 103 durante ese plazo. Transcurridos los 15 días, el Miembro sigue pudiendo cancelar con el reembolso
          proporcional descrito. Esta garantía se suma a los derechos legales del consumidor y no los limita.
        </P>
        <P>
          El reembolso por desistimiento se efectuará sin demora indebida y, en todo caso, antes de 14 días naturales desde que se nos
          comunique la decisión, por el mismo medio de pago y sin gastos.
        </P>
        <div className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-5 text-sm leading-6 text-slate-700">
          <p className="font-semibold text-slate-900">Modelo de formulario de desistimiento</p>
          <p className="mt-2">
            A la atención de {site.legalName}, {site.address.full}, {site.contactEmail}:
          </p>
          <p className="mt-2">
            Por la presente le comunico que desisto de mi contrato de prestación del siguiente servicio: Membresía {site.name}.
          </p>
          <p className="mt-2">
            Contratado el: ______ · Nombre del consumidor: ______ · Domicilio del consumidor: ______ · Firma (solo si el formulario se
            presenta en papel) · Fecha: ______
          </p>
        </div>
      </Section>

      <Section id="normas">
        <P>La comunidad se basa en la confianza entre sus miembros. Cada Miembro se compromete a:</P>
        <UL>
          <li>Tratar con respeto a los demás miembros, ponentes y al equipo de {site.name}.</li>
          <li>
            Mantener la confidencialidad de lo que se comparte en las sesiones y en el foro, y no difundir fuera de la comunidad información
            que permita identificar a otros miembros.
          </li>
          <li>
            No publicar información confidencial o privilegiada de su empresa ni de terceros, ni contenidos ilícitos, difamatorios,
            discriminatorios o que vulneren derechos ajenos.
          </li>
          <li>No utilizar la comunidad para enviar publicidad no solicitada ni para la captación comercial.</li>
          <li>No grabar las sesiones por medios propios ni compartir las grabaciones o sus credenciales con terceros.</li>
        </UL>
        <P>
          {site.name} podrá retirar los contenidos que incumplan estas normas y, ante incumplimientos graves o reiterados, suspender o
          resolver la Membresía previa comunicación al Miembro, con reembolso de la parte proporcional no utilizada.
        </P>
      </Section>

      <Section id="propiedad">
        <P>
          Los contenidos del Sitio (textos, diseño, logotipos, la marca {site.name}, software, grabaciones y materiales) son titularidad de{' '}
          {site.legalName} o de sus licenciantes y están protegidos por el texto refundido de la Ley de Propiedad Intelectual y por la Ley
          17/2001, de Marcas. El Miembro recibe una licencia personal, no exclusiva e intransferible para acceder a ellos para su uso
          privado mientras la Membresía esté activa. Queda prohibida su reproducción, distribución, comunicación pública o transformación
          sin autorización.
        </P>
        <P>
          El Miembro conserva los derechos sobre los contenidos que publica y concede a {site.legalName} una licencia gratuita y no
          exclusiva para alojarlos y mostrarlos dentro de la comunidad, garantizando que dispone de los derechos necesarios. Al intervenir
          con cámara o micrófono en una sesión grupal, el Miembro consiente que su imagen y su voz queden incorporadas a la grabación, que
          solo se pone a disposición de los miembros; si no lo desea, puede participar por chat o con la cámara desactivada.
        </P>
      </Section>

      <Section id="responsabilidad">
        <P>
          {site.name} procura la disponibilidad continuada del Sitio, pero no garantiza la ausencia de interrupciones por mantenimiento,
          fallos técnicos o causas de fuerza mayor. Tampoco responde del uso indebido del Sitio por los Usuarios, de los contenidos
          publicados por los miembros, de las ofertas de empleo de terceros ni de los sitios web enlazados; no obstante, retirará con
          diligencia cualquier contenido ilícito del que tenga conocimiento efectivo, conforme a los artículos 16 y 17 de la LSSI-CE.
        </P>
        <P>
          Nada de lo dispuesto en estas Condiciones limita la responsabilidad de {site.legalName} por dolo o culpa grave, ni los derechos
          que la legislación reconoce a los consumidores.
        </P>
      </Section>

      <Section id="datos">
        <P>
          Los datos personales de los Usuarios y Miembros se tratan conforme al Reglamento (UE) 2016/679 (RGPD) y a la Ley Orgánica 3/2018
          (LOPDGDD). Toda la información se encuentra en nuestra{' '}
          <Link to="/privacidad" className={link}>
            Política de Privacidad y Cookies
          </Link>
          .
        </P>
      </Section>

      <Section id="modificaciones">
        <P>
          {site.name} puede modificar estas Condiciones por razones legales, técnicas o de mejora del servicio. La versión vigente se
          publica en esta página con su fecha de actualización. Los cambios sustanciales se comunicarán a los Miembros por correo
          electrónico con al menos 30 días de antelación; quien no esté conforme podrá cancelar la Membresía con el reembolso proporcional
          de la parte no utilizada.
        </P>
      </Section>

      <Section id="ley">
        <P>
          Estas Condiciones se rigen por la legislación española. Para cualquier controversia, las partes se someten a los Juzgados y
          Tribunales de Barcelona, salvo que el Miembro tenga la condición de consumidor, en cuyo caso serán competentes los de su
          domicilio. Si alguna cláusula fuera declarada nula, las demás conservarán su validez.
        </P>
      </Section>

      <Section id="litigios">
        <P>
          Le invitamos a dirigirnos cualquier queja o reclamación a {contactLink} o al teléfono {site.phone}; le responderemos en el menor
          plazo posible y, en todo caso, en un máximo de un mes. También puede solicitarnos las hojas oficiales de queja, reclamación y
          denuncia.
        </P>
        <P>
          La plataforma europea de resolución de litigios en línea (ODR), creada por el Reglamento (UE) 524/2013, dejó de estar operativa el
          20 de julio de 2025, tras la derogación de dicho reglamento por el Reglamento (UE) 2024/3228. Si una reclamación no se resuelve
          directamente, el consumidor puede acudir a las Juntas Arbitrales de Consumo —en Cataluña, la Junta Arbitral de Consum de
          Catalunya— o a las entidades de resolución alternativa de litigios acreditadas conforme a la Ley 7/2017, de 2 de noviembre, así
          como al Centro Europeo del Consumidor en España en los litigios transfronterizos dentro de la Unión Europea.
        </P>
      </Section>
    </LegalDocument>
  )
}
