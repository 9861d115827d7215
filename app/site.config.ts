/**
 * The operator's details and external addresses, in one place: pages, e-mails and
 * legal texts read them from here, so the operator changes them without touching
 * components.
 */
export const site = {
  name: 'Círculo CEO',
  tagline: 'La comunidad de pharma, biotech y medtech que aspira a la alta dirección',
  legalName: 'Círculo CEO Life Sciences, S.L.',
  taxId: 'B00000000',
  registry: 'Registro Mercantil de Barcelona',
  contactEmail: 'hola@circuloceo.example',
  privacyEmail: 'privacidad@circuloceo.example',
  phone: '+34 930 000 000',
  address: {
    street: 'Passeig de Gràcia, 21',
    postalCode: '08007',
    city: 'Barcelona',
    country: 'España',
    full: 'Passeig de Gràcia, 21, 08007 Barcelona, España',
  },
  /** External admission questionnaire, opened in a new tab. */
  admissionFormUrl: 'https://forms.example.com/solicitud-admision',
  /** External booking page behind 'Hablemos'. */
  bookingUrl: 'https://calendar.example.com/hablemos',
  admission: {
    /**
     * Launch of the founding cohort, counted down in the sticky admission bar. No time zone on
     * purpose: browsers read it in the visitor's local time (spec). Once it has passed, the bar
     * says that admission is open instead.
     */
    launchAt: '2025-10-31T23:59:59',
  },
  /** Date the legal texts were last changed. */
  legalUpdatedAt: '2026-11-22',
} as const

/**
 * The fields that still hold the example data this file ships with. A public deployment
 * refuses to start while any remains: the legal pages would name a company that is not the
 * operator (server/app.ts, checkConfiguration).
 */
export function placeholderFields(config: typeof site = site) {
  const found: string[] = []
  const visit = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (/\.example\b|example\.com|B00000000|\+34 930 000 000/.test(value)) found.push(path)
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) visit(inner, path ? `${path}.${key}` : key)
    }
  }
  visit(config, '')
  return found
}
