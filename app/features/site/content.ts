/**
 * Everything the landing page (/) and the prices page (/pricing) say, in one place:
 * copy, quotes, FAQ, prices, press links, external addresses and the launch date.
 * Components only lay it out. See docs/decisions/0008-landing-content-and-prices.md.
 */
import { site } from '~/site.config'

export { site }

/**
 * External addresses, all opened in a new tab. They live in `site.config.ts`; the admission
 * questionnaire's is a setting the operator changes in the console (components/use-admission.ts).
 */
export const externalLinks = {
  /** The booking page behind 'Hablemos'. */
  booking: site.bookingUrl,
} as const

/** Read by screen readers after every link that opens a new tab. */
export const NEW_TAB_NOTICE = '(se abre en una pestaña nueva)'

export const seo = {
  title: `${site.name} · Comunidad para directivos de pharma, biotech y medtech`,
  pricingTitle: `Precios de la membresía · ${site.name}`,
  description:
    'Comunidad privada para profesionales de pharma, biotech y medtech que aspiran a la alta dirección: una sesión mensual con un CEO, headhunter 1:1 y ofertas filtradas. Desde 89 € al mes.',
  pricingDescription:
    'Membresía de Círculo CEO: 89 € al mes o 900 € al año (75 € al mes). Sesión mensual con un CEO, headhunter 1:1, ofertas filtradas y comunidad privada. Sin permanencia.',
  /** 1200×630 JPEG (social networks do not all read AVIF/WebP), made by scripts/make-landing-images.js. */
  ogImage: {
    path: '/images/og-circulo-ceo.jpg',
    width: 1200,
    height: 630,
    alt: 'Círculo CEO: pharma, biotech y medtech. Un CEO cada mes y un headhunter 1:1.',
  },
  locale: 'es_ES',
} as const

export const hero = {
  eyebrow: 'Pharma · Biotech · Medtech',
  headline: 'Conecta con el 0,1% del talento pharma y aprende cada mes de un CEO',
  lead: 'La comunidad privada para directivos de life sciences que quieren llegar a la dirección general: conversaciones francas con CEOs, un headhunter del sector a tu lado y ofertas filtradas para tu perfil.',
  primaryCta: 'Solicitar admisión',
  secondaryCta: 'Quiero networking de élite',
  highlights: ['1 CEO invitado cada mes', 'Headhunter 1:1 cada mes', 'Plazas limitadas'],
  /** The panel beside the headline on wide screens. */
  panelTitle: 'Cada mes en el Círculo',
  panel: [
    { value: '60 min', label: 'con un CEO invitado, en grupo reducido' },
    { value: '30 min', label: 'a solas con un headhunter de life sciences' },
    { value: '4 áreas', label: 'de ofertas filtradas: ventas, médico, marketing y acceso' },
  ],
} as const

export interface Quote {
  text: string
  author: string
  role: string
}

/**
 * The rotating banner under the hero (one every 6 s). Illustrative quotes written for the launch:
 * replace them with real quotes, with the consent of the people quoted (decision record 0008).
 */
export const quotes: readonly Quote[] = [
  {
    text: 'Llegar a CEO no depende de saber más de tu área, sino de entender todo el negocio y de que las personas adecuadas sepan quién eres.',
    author: 'Marta G.',
    role: 'Directora general, compañía biotech',
  },
  {
    text: 'En una hora con un CEO aprendí más sobre cómo se decide un comité de dirección que en tres años de reuniones de presupuesto.',
    author: 'Javier R.',
    role: 'Director de Market Access',
  },
  {
    text: 'Las mejores posiciones de dirección se cubren antes de publicarse. Tienes que estar en la conversación antes que en el anuncio.',
    author: 'Elena S.',
    role: 'Headhunter especializada en life sciences',
  },
  {
    text: 'Pasar de dirigir una función a dirigir una compañía es el salto más difícil de la carrera. Nadie debería darlo solo.',
    author: 'Carlos M.',
    role: 'CEO, compañía medtech',
  },
] as const

/** How long each quote stays on screen. */
export const QUOTE_INTERVAL_MS = 6000

export const access = {
  eyebrow: 'Acceso',
  title: 'Lo que desbloqueas al entrar',
  intro:
    'No es otro grupo de LinkedIn ni un curso. Es un círculo reducido de profesionales que ya dirigen equipos en compañías de salud y que quieren dar el siguiente paso.',
  items: [
    { title: 'Un CEO invitado cada mes', text: 'Sesión grupal de 60 minutos, participativa y grabada, con preguntas en directo.' },
    { title: 'Tu headhunter de life sciences', text: 'Una sesión individual de 30 minutos al mes para revisar tu posicionamiento.' },
    { title: 'Ofertas filtradas por área', text: 'Ventas, médico, marketing y acceso: solo posiciones que encajan con tu nivel.' },
    { title: 'Comunidad privada y CEO’s Night', text: 'Foro privado, grabaciones e invitaciones VIP a las veladas presenciales.' },
  ],
  cta: 'Solicitar admisión',
} as const

export type BenefitIcon = 'users' | 'eye' | 'compass' | 'target'

export const benefits = {
  eyebrow: 'Beneficios',
  title: 'Cuatro ventajas que no se consiguen en un máster',
  intro: 'Diseñado para directores de unidad de negocio, médicos, marketing y acceso que se preparan para la dirección general.',
  cards: [
    {
      icon: 'users',
      title: 'Contactos de élite',
      text: 'Comparte sala con CEOs, directores generales y los perfiles con más proyección del sector. Relaciones que abren puertas durante años.',
    },
    {
      icon: 'eye',
      title: 'Visibilidad real',
      text: 'Los headhunters y los comités de dirección te conocen por cómo piensas, no por tu CV. Te ven participar, preguntar y aportar.',
    },
    {
      icon: 'compass',
      title: 'Claridad 1:1',
      text: 'Cada mes, 30 minutos a solas con un headhunter de life sciences: qué te falta para el siguiente puesto y cómo contarlo.',
    },
    {
      icon: 'target',
      title: 'Oportunidades filtradas',
      text: 'Ofertas seleccionadas por área (ventas, médico, marketing y acceso) y por nivel. Menos ruido, más posiciones que de verdad te interesan.',
    },
  ] satisfies ReadonlyArray<{ icon: BenefitIcon; title: string; text: string }>,
} as const

export interface LandingImage {
  /** Path without width and extension: `${base}-${width}.avif` / `.webp` exist for every width. */
  base: string
  widths: readonly number[]
  /** Intrinsic size of the largest file (16:10). */
  width: number
  height: number
  alt: string
}

export const ceoNight = {
  eyebrow: 'Acceso VIP',
  title: 'CEO’s Night: la conversación continúa en persona',
  text: 'Periódicamente reunimos a los miembros con un CEO invitado en una velada presencial: una charla sin guion, preguntas sin filtro y tiempo para conocer en persona a quienes ya has visto en las sesiones.',
  points: [
    'Invitación VIP para todos los miembros, incluida en la cuota',
    'Aforo reducido para que las conversaciones sean reales',
    'Un CEO invitado diferente en cada edición',
  ],
  /** Stand-ins generated by scripts/make-landing-images.js: replace with real event photos. */
  images: [
    {
      base: '/images/ceo-night-escenario',
      widths: [640, 1280],
      width: 1280,
      height: 800,
      alt: 'Escenario de una CEO’s Night: el CEO invitado habla bajo los focos ante los miembros del círculo',
    },
    {
      base: '/images/ceo-night-terraza',
      widths: [640, 1280],
      width: 1280,
      height: 800,
      alt: 'Después de la charla: dos copas sobre una terraza con las luces de la ciudad de noche al fondo',
    },
  ] satisfies readonly LandingImage[],
} as const

export interface PressArticle {
  outlet: string
  title: string
  url: string
  date: string
}

/**
 * Press mentions. Outlets and headlines are invented stand-ins and the URLs are
 * example.com placeholders: replace them with the real articles.
 */
export const press = {
  eyebrow: 'Prensa',
  title: 'Se habla de Círculo CEO',
  intro: 'Lo que cuentan los medios especializados del sector salud.',
  articles: [
    {
      outlet: 'Diario Farma Hoy',
      title: 'Nace una comunidad para preparar a la próxima generación de CEOs de la industria farmacéutica',
      url: 'https://example.com/diario-farma-hoy/comunidad-proxima-generacion-ceos',
      date: 'Septiembre de 2025',
    },
    {
      outlet: 'Biotech Ejecutiva',
      title: 'Del laboratorio al comité de dirección: cómo se forma hoy un director general en biotech',
      url: 'https://example.com/biotech-ejecutiva/del-laboratorio-al-comite-de-direccion',
      date: 'Octubre de 2025',
    },
    {
      outlet: 'Gaceta de la Salud Empresarial',
      title: 'Headhunters y CEOs se sientan cada mes con los directivos que aspiran a la alta dirección',
      url: 'https://example.com/gaceta-salud-empresarial/headhunters-y-ceos-cada-mes',
      date: 'Octubre de 2025',
    },
    {
      outlet: 'Diario Farma Hoy',
      title: 'CEO’s Night: las veladas en las que los consejeros delegados del sector hablan sin guion',
      url: 'https://example.com/diario-farma-hoy/ceos-night-veladas-sin-guion',
      date: 'Noviembre de 2025',
    },
  ] satisfies readonly PressArticle[],
  podcast: {
    title: 'El podcast de Círculo CEO',
    text: 'Escucha un extracto de una de nuestras sesiones: cómo preparó su primer comité de dirección un CEO del sector.',
    button: 'Escuchar el podcast',
    iframeTitle: 'Reproductor del podcast de Círculo CEO',
    /**
     * Loaded only when the visitor asks for it. Placeholder episode: replace with the real embed.
     * The server's CSP allows this URL's origin in frame-src (server/app.ts reads it from here).
     */
    embedUrl: 'https://open.spotify.com/embed/episode/0000000000000000000000?utm_source=generator&theme=0',
    height: 152,
  },
} as const

export const howItWorks = {
  eyebrow: 'Admisión',
  /** The heading the top bar's 'Cómo Funciona' link lands on. */
  title: 'Cómo Funciona',
  intro: 'Un proceso breve para asegurar que cada miembro aporta y recibe al mismo nivel.',
  steps: [
    {
      title: 'Solicita tu admisión',
      text: 'Completa un cuestionario online sobre tu trayectoria y tus objetivos. Te lleva menos de 5 minutos.',
    },
    {
      title: 'Llamada de 15 minutos',
      text: 'Una conversación breve con el equipo para confirmar que el círculo encaja con tu momento profesional.',
    },
    {
      title: 'Acceso completo',
      text: 'Entras en la comunidad, reservas tu primera sesión 1:1 y te unes a la próxima sesión con el CEO invitado.',
    },
  ],
  note: '¿No puedes asistir en directo? Recibes la grabación de cada sesión para verla cuando quieras.',
  cta: 'Abrir mi red ahora',
} as const

export type PlanId = 'monthly' | 'annual'

export interface Plan {
  id: PlanId
  label: string
  /** The amount charged, in euros (Stripe's prices must match). */
  amount: number
  /** Display strings are written out: es-ES prints 1200 without a thousands separator. */
  price: string
  compareAt: string
  period: string
  /** Spoken with the struck-through price, which a screen reader does not announce as such. */
  compareAtLabel: string
  savings?: string
  billingNote: string
}

export const pricing = {
  eyebrow: 'Precios',
  title: 'Una inversión en tu próximo puesto',
  intro: 'Precio de lanzamiento para los miembros fundadores. Elige cómo quieres pagar: el contenido es el mismo.',
  toggleLegend: 'Modalidad de pago',
  defaultPlan: 'monthly' as PlanId,
  plans: {
    monthly: {
      id: 'monthly',
      label: 'Mensual',
      amount: 89,
      price: '89 €',
      compareAt: '120 €',
      period: 'al mes',
      compareAtLabel: 'Antes 120 € al mes',
      billingNote: 'Se cobra cada mes. Sin permanencia.',
    },
    annual: {
      id: 'annual',
      label: 'Anual',
      amount: 900,
      price: '900 €',
      compareAt: '1.200 €',
      period: 'al año',
      compareAtLabel: 'Antes 1.200 € al año',
      /** Wording fixed by the spec: measured against a 90 €/month reference (see decision 0008). */
      savings: 'Ahorra 180€ al año',
      billingNote: 'Un solo pago al año: 12 sesiones grupales y 12 sesiones individuales.',
    },
  } satisfies Record<PlanId, Plan>,
  badge: 'Oferta de lanzamiento',
  cardTitle: 'Membresía Círculo CEO',
  features: [
    'Sesión grupal mensual con un CEO invitado (60 min)',
    'Sesión 1:1 mensual con un headhunter de life sciences (30 min)',
    'Ofertas de empleo filtradas por área: ventas, médico, marketing y acceso',
    'Comunidad privada y foro de miembros',
    'Grabaciones de todas las sesiones',
    'Invitaciones VIP a las CEO’s Night presenciales',
  ],
  notes: [
    'Plazas limitadas: cada miembro tiene su sesión 1:1 y la capacidad de los headhunters es finita.',
    'Sin permanencia: cancela cuando quieras desde tu perfil.',
    'Puedes pausar la membresía si lo necesitas.',
    'Precios con IVA incluido.',
  ],
  guarantee: 'Reembolso del 100% en los primeros 15 días',
  guaranteeDetail: 'Después, reembolso proporcional del periodo no utilizado.',
  legalLink: 'Condiciones de contratación',
  buy: 'Hazte miembro',
  pending: 'Procesando...',
  premiumTitle: 'Ya eres miembro Premium',
  premiumText: 'Tu membresía está activa. Gestiona tu suscripción desde tu perfil.',
  premiumLink: 'Ir a mi perfil',
  signInNote: 'Te pediremos iniciar sesión o crear tu cuenta antes del pago.',
} as const

export const closing = {
  title: '¿Podrías ser CEO algún día?',
  text: 'Los directivos que llegan a la dirección general no lo hacen solos: tienen mentores, visibilidad y una red que les avisa antes que a nadie. Empieza a construir la tuya hoy.',
  primaryCta: 'Solicitar admisión',
} as const

export interface FaqItem {
  question: string
  answer: string
}

export const faq = {
  eyebrow: 'FAQ',
  title: 'Preguntas frecuentes',
  intro: '¿Tienes otra duda? Reserva 15 minutos con nosotros y te la resolvemos.',
  contactCta: 'Hablemos',
  items: [
    {
      question: '¿Cuánto cuesta la membresía?',
      answer:
        'Durante el lanzamiento, 89 € al mes (antes 120 €) o 900 € al año (antes 1.200 €), IVA incluido. Con el pago anual, la membresía te sale a 75 € al mes. El precio incluye todo lo que ofrece la membresía.',
    },
    {
      question: '¿Qué incluye exactamente?',
      answer:
        'Cada mes, una sesión grupal de 60 minutos con un CEO invitado (participativa y grabada) y una sesión individual de 30 minutos con un headhunter de life sciences. Además, ofertas de empleo filtradas por área, el foro y la comunidad privada, las grabaciones de todas las sesiones e invitaciones VIP a las CEO’s Night presenciales. El plan anual incluye 12 sesiones grupales y 12 individuales.',
    },
    {
      question: '¿Hay permanencia? ¿Cómo cancelo?',
      answer:
        'No hay permanencia mínima. Puedes cancelar en cualquier momento desde tu perfil o escribiéndonos; la cancelación detiene los cobros futuros.',
    },
    {
      question: '¿Puedo pedir un reembolso?',
      answer:
        'Sí. Si cancelas en los primeros 15 días te devolvemos el 100 % de lo pagado, sin preguntas. A partir del día 16, te reembolsamos la parte proporcional no utilizada del periodo abonado. Los detalles están en las condiciones de contratación del aviso legal.',
    },
    {
      question: '¿Puedo pausar la membresía?',
      answer:
        'Sí. Si tienes un periodo de mucha carga, un cambio de puesto o un permiso, puedes pausarla en cualquier momento y reanudarla cuando quieras. Durante la pausa no hay cobros y te devolvemos la parte no usada del periodo en curso (el 100 % si pausas en los primeros 15 días).',
    },
    {
      question: '¿Para quién es Círculo CEO?',
      answer:
        'Para profesionales de pharma, biotech y medtech con responsabilidad de dirección (unidades de negocio, ventas, médico, marketing, acceso al mercado y funciones afines) que quieren llegar a la dirección general o al comité de dirección en los próximos años.',
    },
    {
      question: '¿Cómo es el proceso de admisión?',
      answer:
        'Rellenas un cuestionario online, mantenemos una llamada de 15 minutos para confirmar el encaje y, si encaja, tienes acceso completo desde ese momento. Admitimos un número limitado de miembros para garantizar las sesiones individuales.',
    },
    {
      question: '¿Y si no puedo asistir a una sesión en directo?',
      answer:
        'Todas las sesiones grupales se graban. Si no puedes asistir, recibes la grabación y puedes verla cuando te venga bien, tantas veces como quieras.',
    },
    {
      question: '¿Cómo funciona la sesión con el headhunter?',
      answer:
        'Cada mes reservas 30 minutos a solas con un headhunter especializado en life sciences. Puedes revisar tu CV y tu perfil, preparar una entrevista, negociar una oferta o decidir tu siguiente movimiento. La conversación es confidencial.',
    },
    {
      question: '¿Qué tipo de ofertas de empleo recibo?',
      answer:
        'Posiciones de responsabilidad en compañías del sector, de empresas y seleccionadores que trabajan con nosotros, filtradas por área (ventas, médico, marketing y acceso al mercado) y por nivel.',
    },
    {
      question: '¿Qué es la CEO’s Night?',
      answer:
        'Una velada presencial con un CEO invitado, una charla sin guion y tiempo para conocer a otros miembros en persona. Todos los miembros reciben invitación VIP, incluida en la cuota, sujeta al aforo disponible; el desplazamiento y el alojamiento corren por tu cuenta.',
    },
    {
      question: '¿Qué formas de pago aceptáis?',
      answer:
        'Tarjeta bancaria, con pago seguro a través de Stripe (nunca almacenamos los números de tarjeta), o transferencia bancaria; en ese caso la membresía se activa al recibir el importe. Emitimos factura electrónica por cada pago.',
    },
  ] satisfies readonly FaqItem[],
} as const

export const stickyBar = {
  label: 'Lanzamiento en:',
  /** Shown instead of the countdown once `site.admission.launchAt` has passed. */
  openLabel: 'Admisión abierta',
  openText: 'Plazas limitadas por la capacidad de las sesiones 1:1',
  cta: 'Solicitar admisión',
  units: [
    { key: 'days', short: 'd', long: 'días' },
    { key: 'hours', short: 'h', long: 'horas' },
    { key: 'minutes', short: 'm', long: 'minutos' },
    { key: 'seconds', short: 's', long: 'segundos' },
  ],
  /** Scrolled past this share of the viewport's height, the bar appears. */
  showAfterViewportShare: 0.8,
} as const

export const pricingPage = {
  title: 'Precios',
  lead: 'Una sola membresía con todo incluido. Elige el pago mensual o ahorra con el anual.',
  faqLink: 'Resolver dudas en las preguntas frecuentes',
  admissionNote: '¿Todavía no has pasado la llamada de admisión? Empieza por el cuestionario: te lleva 5 minutos.',
  admissionCta: 'Solicitar admisión',
} as const
