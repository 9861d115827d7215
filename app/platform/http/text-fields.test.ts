import { describe, expect, test } from 'vitest'
import type { z } from 'zod'
import { SignUpSchema } from '~/features/account/auth-schemas'
import { ProfileSchema } from '~/features/account/profile-schemas'
import { SessionFieldsSchema } from '~/features/ceo-sessions/schemas'
import { EventIntent } from '~/features/events/schemas'
import { CommentContent } from '~/features/community/comments/schemas'
import { NewPostSchema } from '~/features/feed/schemas'

// One text rule for every feature (spec 001 §5 and our hardening): the same hostile character
// is refused wherever a member can type it, and the same harmless one is kept everywhere.

const SESSION = {
  title: 'Título',
  summary: 'Resumen',
  description: 'Descripción',
  ceoName: 'Ana',
  ceoPosition: 'CEO',
  ceoCompany: 'Farma',
  sessionDate: '2026-11-20T10:00',
}
const EVENT = { intent: 'create-event', title: 'Cena', description: 'Cena de CEOs', eventDate: '2027-01-20T20:00', eventType: 'presencial' }

/** Each feature's single-line and multi-line text fields, through their real schemas. */
const FIELDS: { name: string; multiline: boolean; parse: (value: string) => z.ZodSafeParseResult<unknown> }[] = [
  {
    name: 'sign-up first name',
    multiline: false,
    parse: (firstName) =>
      SignUpSchema.safeParse({
        intent: 'signup',
        firstName,
        lastName: 'Ruiz',
        email: 'a@b.es',
        password: 'secreto123',
        confirmPassword: 'secreto123',
      }),
  },
  { name: 'profile company', multiline: false, parse: (company) => ProfileSchema.safeParse({ intent: 'profile', company }) },
  { name: 'profile biography', multiline: true, parse: (bio) => ProfileSchema.safeParse({ intent: 'profile', bio }) },
  { name: 'post title', multiline: false, parse: (title) => NewPostSchema.safeParse({ intent: 'create-post', title }) },
  { name: 'post content', multiline: true, parse: (content) => NewPostSchema.safeParse({ intent: 'create-post', title: 'T', content }) },
  { name: 'comment', multiline: true, parse: (content) => CommentContent.safeParse(content) },
  { name: 'session title', multiline: false, parse: (title) => SessionFieldsSchema.safeParse({ ...SESSION, title }) },
  { name: 'session summary', multiline: true, parse: (summary) => SessionFieldsSchema.safeParse({ ...SESSION, summary }) },
  { name: 'event title', multiline: false, parse: (title) => EventIntent.safeParse({ ...EVENT, title }) },
  { name: 'event location', multiline: false, parse: (location) => EventIntent.safeParse({ ...EVENT, location }) },
  { name: 'event content', multiline: true, parse: (content) => EventIntent.safeParse({ ...EVENT, content }) },
]

const REFUSED_EVERYWHERE = {
  'a NUL': 'Ana\u0000',
  'an escape (ANSI)': 'Ana\u001b[31m',
  'a right-to-left override (CVE-2021-42574)': 'Ana\u202Egnp.exe',
  'an invisible direction mark': 'Ana\u200F',
  'a zero-width space': 'A\u200Bna',
  'a line separator (U+2028)': 'Ana\u2028Ruiz',
  'a paragraph separator (U+2029)': 'Ana\u2029Ruiz',
  'a byte-order mark inside a word': 'A\uFEFFna',
}

describe('one text rule for every feature', () => {
  for (const field of FIELDS) {
    test(`${field.name}: refuses control, bidirectional and invisible characters, keeps emoji sequences and accents`, () => {
      for (const [what, value] of Object.entries(REFUSED_EVERYWHERE)) {
        expect(field.parse(value).success, `${field.name} must refuse ${what}`).toBe(false)
      }
      // The zero-width joiner holds emoji sequences together; accents and ñ are ordinary letters.
      expect(field.parse('Equipo 👩\u200D💻 Núñez').success).toBe(true)
      // A single-line field has no line breaks or tabs; a multi-line one keeps them.
      expect(field.parse('Ana\nRuiz').success).toBe(field.multiline)
      expect(field.parse('Ana\tRuiz').success).toBe(field.multiline)
    })
  }

  test('the refusal names the field, with the message the form shows', () => {
    const result = NewPostSchema.safeParse({ intent: 'create-post', title: 'Ho\u2028la' })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['El título contiene caracteres no válidos'])
    const name = ProfileSchema.safeParse({ intent: 'profile', firstName: 'Ana\u202E' })
    expect(name.error?.issues.map((issue) => issue.message)).toEqual(['Contiene caracteres no válidos'])
  })
})
