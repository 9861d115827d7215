import { z } from 'zod'
import { optionalText, requiredText } from '~/platform/http/text-fields'
import { APPLICATION_LIMITS as LIMITS, SECTORS } from './limits'

/** The forms of admission (docs/decisions/0012): the application, the applicant's steps, the admins' decisions. */

const email = z
  .string({ error: 'Por favor ingresa un email válido' })
  .trim()
  .toLowerCase()
  .max(LIMITS.email, 'El email es demasiado largo')
  .pipe(z.email('Por favor ingresa un email válido'))

export const LINKEDIN_MESSAGE = 'Indica la dirección de tu perfil de LinkedIn (https://www.linkedin.com/in/…)'

function isLinkedInProfile(value: string) {
  try {
    const url = new URL(value)
    return (
      url.protocol === 'https:' && (url.hostname === 'linkedin.com' || url.hostname.endsWith('.linkedin.com')) && url.pathname.length > 1
    )
  } catch {
    return false
  }
}

export const ApplicationSchema = z.object({
  intent: z.literal('apply'),
  firstName: requiredText(LIMITS.name, { required: 'El nombre es requerido', tooLong: 'El nombre es demasiado largo' }),
  lastName: requiredText(LIMITS.name, { required: 'El apellido es requerido', tooLong: 'El apellido es demasiado largo' }),
  email,
  phone: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 ()-]{5,28}$/, 'Indica un teléfono válido, por ejemplo +34 600 000 000')
      .optional()
      .transform((value) => value ?? null),
  ),
  linkedinUrl: z.string({ error: LINKEDIN_MESSAGE }).trim().max(LIMITS.url, LINKEDIN_MESSAGE).refine(isLinkedInProfile, LINKEDIN_MESSAGE),
  company: requiredText(LIMITS.company, { required: 'Indica tu empresa' }),
  position: requiredText(LIMITS.position, { required: 'Indica tu cargo actual' }),
  sector: z.enum(Object.keys(SECTORS) as [keyof typeof SECTORS], 'Elige tu sector'),
  yearsExperience: z.coerce
    .number({ error: `Indica tus años de experiencia (de 0 a ${LIMITS.yearsMax})` })
    .int(`Indica tus años de experiencia (de 0 a ${LIMITS.yearsMax})`)
    .min(0, `Indica tus años de experiencia (de 0 a ${LIMITS.yearsMax})`)
    .max(LIMITS.yearsMax, `Indica tus años de experiencia (de 0 a ${LIMITS.yearsMax})`),
  targetRole: requiredText(LIMITS.targetRole, { required: 'Indica el puesto al que aspiras' }),
  contribution: requiredText(LIMITS.text, { multiline: true, required: 'Cuéntanos qué aportarías a la comunidad' }),
  expectations: requiredText(LIMITS.text, { multiline: true, required: 'Cuéntanos qué esperas de la comunidad' }),
  referral: optionalText(LIMITS.referral),
  consent: z.literal('on', 'Debes aceptar la política de privacidad para enviar tu solicitud'),
  /** A field people never see: what fills it is a robot. */
  website: z.string().max(500).optional(),
  /** The private status link's token, when its applicant changes an open application. */
  link: z.string().max(300).optional(),
})

export type ApplicationInput = z.output<typeof ApplicationSchema>

/** The status page's steps (the link's token names the application). */
export const ApplicantIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('withdraw') }),
  z.object({
    intent: z.literal('answer'),
    answer: requiredText(LIMITS.note, { multiline: true, required: 'Escribe tu respuesta' }),
  }),
])

const seen = z.enum(['pending', 'info_requested', 'waitlisted', 'approved', 'rejected', 'withdrawn'])

/** An admin's steps on one application; `seen` is the state the admin saw, so two decisions at once cannot both pass. */
export const ReviewIntent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('approve'), seen }),
  z.object({ intent: z.literal('reject'), seen }),
  z.object({ intent: z.literal('waitlist'), seen }),
  z.object({
    intent: z.literal('ask-info'),
    seen,
    question: requiredText(LIMITS.note, { multiline: true, required: 'Escribe la pregunta para el candidato' }),
  }),
  z.object({ intent: z.literal('note'), note: requiredText(LIMITS.note, { multiline: true, required: 'Escribe la nota' }) }),
])
