import { createSession } from '~/features/ceo-sessions/sessions.server'
import type { SessionFields } from '~/features/ceo-sessions/types'
import { BASE_URL } from './requests'

export const SESSION_FIELDS: SessionFields = {
  title: 'Liderar una biotech en crecimiento',
  summary: 'Resumen',
  description: 'Descripción larga',
  ceoName: 'Lucía Gómez',
  ceoPosition: 'CEO',
  ceoCompany: 'Genómica SA',
  sessionDate: new Date('2026-11-01T17:00:00Z'),
  durationMinutes: null,
  tags: ['liderazgo'],
  isFeatured: false,
}

/** A session created by `createdBy` through the model, waiting for its video. */
export function newSession(createdBy: string) {
  return createSession(SESSION_FIELDS, { createdBy, origin: BASE_URL })
}
