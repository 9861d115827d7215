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
  /** Date the legal texts were last changed. */
  legalUpdatedAt: '2026-11-22',
} as const
