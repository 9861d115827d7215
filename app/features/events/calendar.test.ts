import { eq, gt } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { communityStats } from '~/features/community/stats.server'
import { notifications } from '~/features/notifications/schema'
import { getDb } from '~/platform/db/client.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { pixelBombPng } from '../../../tests/setup/images'
import { createPeople, type People, type Persona } from '../../../tests/setup/members'
import { formRequest, getRequest, run } from '../../../tests/setup/requests'
import * as calendarRoute from './calendar.route'
import { viewerTimeLabel } from './components/event-time'
import * as eventRoute from './event.route'
import * as icsRoute from './ics.route'
import * as pageRoute from './page.route'
import { ceoSessions } from '~/features/ceo-sessions/schema'
import { events } from './schema'

useTestDatabase()

let people: People
beforeAll(async () => {
  people = await createPeople()
})

const FIELDS = {
  title: 'Encuentro de directivas',
  description: 'Networking, café y una charla',
  content: '',
  eventDate: '2027-03-10T19:00',
  timeZone: 'Europe/Madrid',
  durationMinutes: '120',
  location: 'Madrid, Calle Mayor 1',
  eventType: 'presencial',
  maxAttendees: '',
  externalLink: '',
}

const act = (fields: Record<string, string>, cookie?: string) =>
  run(() => calendarRoute.action({ request: formRequest('/comunidad/calendario', fields, { cookie }), params: {}, context: {} } as never))
const tab = (search: string, cookie?: string) =>
  run(() => calendarRoute.loader({ request: getRequest(`/comunidad/calendario${search}`, { cookie }), params: {}, context: {} } as never))
const page = (eventId: string, cookie?: string) =>
  run(() =>
    eventRoute.loader({ request: getRequest(`/comunidad/calendario/${eventId}`, { cookie }), params: { eventId }, context: {} } as never),
  )
const ics = (params: Record<string, string>, path: string, cookie?: string) =>
  run(() => icsRoute.loader({ request: getRequest(path, { cookie }), params, context: {} } as never))

async function newEvent(overrides: Record<string, string> = {}) {
  const outcome = await act({ intent: 'create-event', ...FIELDS, ...overrides }, people.admin.cookie)
  expect(outcome.status).toBe(200)
  return outcome.data.eventId as string
}

describe('managing events', () => {
  test('an admin creates an event at 19:00 Madrid; members hear of it; it counts in its month', async () => {
    const eventId = await newEvent()
    const [row] = await getDb().select().from(events).where(eq(events.id, eventId))
    expect(row!.eventDate.toISOString()).toBe('2027-03-10T18:00:00.000Z')
    const bells = await getDb().select().from(notifications).where(eq(notifications.relatedEventId, eventId))
    expect(bells.map((bell) => bell.userId).sort()).toEqual([people.member.userId, people.premium.userId, people.moderator.userId].sort())
    expect((await communityStats(new Date('2027-03-15T12:00:00Z'))).eventsThisMonth).toBeGreaterThanOrEqual(1)
    expect((await communityStats(new Date('2027-04-15T12:00:00Z'))).eventsThisMonth).toBe(0)
  })

  test.each([
    ['no title', { title: ' ' }, 'title', 'Este campo es obligatorio'],
    ['no short description', { description: '' }, 'description', 'Este campo es obligatorio'],
    ['no date', { eventDate: '' }, 'eventDate', 'Este campo es obligatorio'],
    ['a date that does not exist', { eventDate: '2027-02-30T10:00' }, 'eventDate', 'Fecha no válida'],
    ['an unknown type', { eventType: 'fiesta' }, 'eventType', 'Elige el tipo de evento'],
    ['a maximum that is not a whole number', { maxAttendees: '2.5' }, 'maxAttendees', 'El máximo de asistentes debe ser un número entero'],
    [
      'an external link that is not a URL',
      { externalLink: 'javascript:alert(1)' },
      'externalLink',
      'El enlace externo debe ser una URL válida (http o https)',
    ],
    ['an unknown time zone', { timeZone: 'Mars/Olympus' }, 'timeZone', 'Zona horaria no válida'],
  ])('%s is refused with its field message', async (_name, override, field, message) => {
    const outcome = await act({ intent: 'create-event', ...FIELDS, ...override }, people.admin.cookie)
    expect(outcome.status).toBe(400)
    expect(outcome.data.message.title).toBe('No se pudo crear el evento')
    expect(outcome.data.submission.error[field]).toEqual([message])
  })

  const CAN_MANAGE: Record<Persona, number> = { anonymous: 302, member: 403, premium: 403, moderator: 200, admin: 200 }
  test.each(Object.entries(CAN_MANAGE))('create, edit and delete an event as %s → %i', async (persona, status) => {
    const cookie = people[persona as Persona].cookie
    const allowed = status === 200
    const titled = (title: string) => getDb().select({ id: events.id }).from(events).where(eq(events.title, title))
    expect((await act({ intent: 'create-event', ...FIELDS, title: `Creado por ${persona}` }, cookie)).status).toBe(status)
    expect(await titled(`Creado por ${persona}`)).toHaveLength(allowed ? 1 : 0)

    const eventId = await newEvent({ title: `Para ${persona}` })
    const titleNow = async () => (await getDb().select({ title: events.title }).from(events).where(eq(events.id, eventId)))[0]?.title
    const edited = await act({ intent: 'update-event', eventId, ...FIELDS, title: `Editado por ${persona}` }, cookie)
    expect(edited.status).toBe(status)
    if (status === 200) expect(edited.data.message.title).toBe('Evento actualizado exitosamente')
    if (status === 403) expect(edited.data.message.title).toBe('Error al actualizar el evento')
    expect(await titleNow()).toBe(allowed ? `Editado por ${persona}` : `Para ${persona}`)

    const removed = await act({ intent: 'delete-event', eventId }, cookie)
    expect(removed.status).toBe(status)
    if (status === 200) expect(removed.data.message.title).toBe('Evento eliminado')
    expect(await titleNow()).toBe(allowed ? undefined : `Para ${persona}`)
  })

  test('unknown events: 404 with the spec-like message', async () => {
    expect((await act({ intent: 'delete-event', eventId: crypto.randomUUID() }, people.admin.cookie)).status).toBe(404)
    expect((await act({ intent: 'toggle-registration', eventId: crypto.randomUUID() }, people.premium.cookie)).status).toBe(404)
    expect((await page(crypto.randomUUID(), people.premium.cookie)).data.message.title).toBe('Evento no encontrado')
    expect((await page('x', people.premium.cookie)).status).toBe(404)
  })
})

describe('registration and the calendar', () => {
  const CAN_REGISTER: Record<Persona, number> = { anonymous: 302, member: 403, premium: 200, moderator: 403, admin: 200 }
  test.each(Object.entries(CAN_REGISTER))('register as %s → %i', async (persona, status) => {
    const eventId = await newEvent({ title: `Registro ${persona}` })
    const outcome = await act({ intent: 'toggle-registration', eventId }, people[persona as Persona].cookie)
    expect(outcome.status).toBe(status)
    if (status === 200) {
      expect(outcome.data.message.title).toBe('Registrado al evento')
      expect((await act({ intent: 'toggle-registration', eventId }, people[persona as Persona].cookie)).data.message.title).toBe(
        'Registro cancelado',
      )
    }
  })

  test('the list, the month and the event page show it; without premium only the prompt', async () => {
    const eventId = await newEvent({ title: 'En el calendario', eventDate: '2027-05-04T19:00' })
    await act({ intent: 'toggle-registration', eventId }, people.premium.cookie)
    const list = await tab('', people.premium.cookie)
    expect(list.data.events.find((event: { id: string }) => event.id === eventId)).toMatchObject({
      myStatus: 'registered',
      registeredCount: 1,
    })
    const month = await tab('?vista=calendario&mes=2027-05', people.premium.cookie)
    expect(month.data.events.map((event: { id: string }) => event.id)).toContain(eventId)
    const other = await tab('?vista=calendario&mes=2027-06', people.premium.cookie)
    expect(other.data.events.map((event: { id: string }) => event.id)).not.toContain(eventId)
    const detail = await page(eventId, people.premium.cookie)
    expect(detail.data.event.attendees).toEqual([expect.objectContaining({ userId: people.premium.userId })])
    expect(detail.data.event.wallTime).toBe('2027-05-04T19:00')
    expect((await tab('', people.member.cookie)).data).toEqual({ hasAccess: false })
    expect((await page(eventId, people.member.cookie)).data).toEqual({ hasAccess: false })
  })

  test('19:00 in Madrid reads 19:00 for a Madrid viewer and 12:00 for one in Mexico City', () => {
    const date = '2026-11-23T18:00:00.000Z'
    expect(viewerTimeLabel(date, 'Europe/Madrid', 'Europe/Madrid')).toBeNull()
    expect(viewerTimeLabel(date, 'Europe/Madrid', 'America/Mexico_City')).toBe('23 de noviembre de 2026, 12:00 en tu zona horaria')
  })
})

describe('calendar files', () => {
  test('the .ics of an event is RFC 5545 with its zone; only members with access get it', async () => {
    const eventId = await newEvent({ title: 'Cena; con, comas' })
    const file = await ics({ eventId }, `/comunidad/calendario/${eventId}/ics`, people.premium.cookie)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
    const text = String(file.data)
    expect(text).toContain(`UID:${eventId}@`)
    expect(text).toMatch(/DTSTAMP:\d{8}T\d{6}Z\r\n/)
    expect(text).toContain('DTSTART;TZID=Europe/Madrid:20270310T190000')
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Madrid')
    expect(text).toContain('SUMMARY:Cena\\; con\\, comas')
    expect((await ics({ eventId }, `/comunidad/calendario/${eventId}/ics`, people.member.cookie)).status).toBe(403)
  })

  test('the private feed shows only its owner’s registered events, and a new link revokes the old', async () => {
    const mine = await newEvent({ title: 'Mío' })
    const theirs = await newEvent({ title: 'De otra persona' })
    await act({ intent: 'toggle-registration', eventId: mine }, people.premium.cookie)
    await act({ intent: 'toggle-registration', eventId: theirs }, people.admin.cookie)
    const feedPath: string = (await page(mine, people.premium.cookie)).data.feedPath
    expect(feedPath).toMatch(/^\/calendario\/privado\/[A-Za-z0-9_-]{43}\.ics$/)
    const file = feedPath.split('/').pop()!
    const feed = await ics({ file }, feedPath)
    expect(feed.status).toBe(200)
    expect(String(feed.data)).toContain('SUMMARY:Mío')
    expect(String(feed.data)).not.toContain('De otra persona')
    // The same address on the next visit; a guessed one is nobody's.
    expect((await page(mine, people.premium.cookie)).data.feedPath).toBe(feedPath)
    expect((await ics({ file: `${'A'.repeat(43)}.ics` }, '/calendario/privado/x.ics')).status).toBe(404)

    const renewed = await act({ intent: 'renew-calendar-feed' }, people.premium.cookie)
    expect(renewed.data.feedPath).not.toBe(feedPath)
    expect((await ics({ file }, feedPath)).status).toBe(404)
    expect((await ics({ file: renewed.data.feedPath.split('/').pop() }, renewed.data.feedPath)).status).toBe(200)
  })
})

describe('the recording of a past event', () => {
  test('an admin links a published session once the event has happened; nobody else can', async () => {
    const [session] = await getDb()
      .insert(ceoSessions)
      .values({
        title: 'Grabación de la mesa',
        summary: 'Resumen',
        description: 'Descripción',
        ceoName: 'Ana',
        ceoPosition: 'CEO',
        ceoCompany: 'Farma',
        sessionDate: new Date(),
        videoProvider: 'local',
        publicationStatus: 'published',
        uploadStatus: 'ready',
      })
      .returning({ id: ceoSessions.id })
    const upcoming = await newEvent({ title: 'Todavía no' })
    const link = (eventId: string, sessionId: string, cookie = people.admin.cookie) =>
      act({ intent: 'link-recording', eventId, sessionId }, cookie)
    expect((await link(upcoming, session!.id)).data.message.title).toBe('La grabación se puede añadir cuando el evento haya pasado')
    const past = await newEvent({ title: 'Ya pasó', eventDate: '2025-01-10T19:00' })
    expect((await link(past, session!.id, people.premium.cookie)).status).toBe(403)
    expect((await link(past, crypto.randomUUID())).status).toBe(404)
    const linked = await link(past, session!.id)
    expect(linked.data.message.title).toBe('Grabación guardada')
    const detail = await page(past, people.premium.cookie)
    expect(detail.data.event.recordingSessionId).toBe(session!.id)
    expect(detail.data.recordingChoices).toEqual([])
    expect((await page(past, people.admin.cookie)).data.recordingChoices).toContainEqual({ id: session!.id, title: 'Grabación de la mesa' })
    // A past event is listed under 'Pasados', not among the upcoming ones.
    const list = await tab('', people.premium.cookie)
    expect(list.data.past.map((event: { id: string }) => event.id)).toContain(past)
    expect(list.data.events.map((event: { id: string }) => event.id)).not.toContain(past)
  })
})

describe('requests the calendar does not accept', () => {
  const post = (body: BodyInit, contentType?: string) =>
    run(() =>
      calendarRoute.action({
        request: new Request('http://localhost:3000/comunidad/calendario', {
          method: 'POST',
          body,
          headers: {
            Origin: 'http://localhost:3000',
            'x-app-client-ip': '203.0.113.7',
            Cookie: people.admin.cookie!,
            ...(contentType ? { 'Content-Type': contentType } : {}),
          },
        }),
        params: {},
        context: {},
      } as never),
    )

  test('a JSON body is a 415, a cut multipart body a 400, an image that is not one a 415; nothing is created', async () => {
    const before = (await getDb().select({ id: events.id }).from(events)).length
    expect((await post(JSON.stringify({ intent: 'create-event', ...FIELDS }), 'application/json')).status).toBe(415)
    const cut = `--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\ncreate-event\r\n--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\n\x89PNG`
    expect((await post(cut, 'multipart/form-data; boundary=x')).status).toBe(400)
    const form = new FormData()
    for (const [name, value] of Object.entries({ intent: 'create-event', ...FIELDS })) form.append(name, value)
    form.append('image', new Blob(['%PDF-1.4 not an image'], { type: 'image/png' }), 'foto.png')
    const refused = await post(form)
    expect(refused.status).toBe(415)
    expect(refused.data.message).toEqual({ title: 'Tipo de archivo inválido', description: 'La imagen debe ser JPG, PNG, WebP o GIF' })
    expect((await getDb().select({ id: events.id }).from(events)).length).toBe(before)
  })

  test('an image of huge dimensions (a pixel bomb) gets the same 413 as an avatar or an attachment; nothing is created', async () => {
    const before = (await getDb().select({ id: events.id }).from(events)).length
    const form = new FormData()
    for (const [name, value] of Object.entries({ intent: 'create-event', ...FIELDS })) form.append(name, value)
    form.append('image', new Blob([new Uint8Array(pixelBombPng(8000, 6000))], { type: 'image/png' }), 'foto.png')
    const refused = await post(form)
    expect(refused.status).toBe(413)
    expect(refused.data.message.title).toBe('La imagen es demasiado grande (máximo 40 megapíxeles)')
    expect((await getDb().select({ id: events.id }).from(events)).length).toBe(before)
  })

  test('an unknown intent and a malformed id are 400s', async () => {
    expect((await act({ intent: 'borrar-todo' }, people.admin.cookie)).status).toBe(400)
    expect((await act({ intent: 'toggle-registration', eventId: 'nope' }, people.premium.cookie)).status).toBe(400)
  })
})

describe("the list's pages", () => {
  test("12 upcoming events a page, soonest first; 'Cargar más' goes on after the last one, each event once", async () => {
    // Straight into the table, after every other event, two at the same instant at each date.
    await getDb()
      .insert(events)
      .values(
        Array.from({ length: 27 }, (_, index) => ({
          title: `Lejano ${index}`,
          description: '',
          eventType: 'virtual' as const,
          eventDate: new Date(Date.UTC(2031, 0, 1 + Math.floor(index / 2), 18)),
        })),
      )
    const first = await tab('', people.premium.cookie)
    expect(first.data.events).toHaveLength(12)
    const seen: Array<{ id: string; eventDate: string }> = [...first.data.events]
    for (let next = first.data.next; next;) {
      const page = await run(() =>
        pageRoute.loader({
          request: getRequest(`/comunidad/calendario/pagina?cursor=${next}`, { cookie: people.premium.cookie }),
          params: {},
          context: {},
        } as never),
      )
      seen.push(...page.data.items)
      next = page.data.next
    }
    const upcoming = await getDb().select({ id: events.id }).from(events).where(gt(events.eventDate, new Date()))
    expect(seen.map((event) => event.id).toSorted()).toEqual(upcoming.map((event) => event.id).toSorted())
    const dates = seen.map((event) => event.eventDate)
    expect(dates).toEqual(dates.toSorted())
    // Without JavaScript the link opens the next page itself, without 'Pasados'.
    const second = await tab(`?cursor=${first.data.next}`, people.premium.cookie)
    expect(second.data.events[0].id).toBe(seen[12]!.id)
    expect(second.data.past).toEqual([])
  })
})
