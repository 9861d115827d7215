import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { render } from '@react-email/render'
import type { ReactElement } from 'react'
import { beforeAll, describe, expect, test } from 'vitest'
import { EventReminderEmail } from '~/features/events/emails/reminder'
import { eventTimeInZone } from '~/features/events/format'
import { EVENT_TYPES } from '~/features/events/limits'
import { getEnv } from '~/platform/env.server'
import type { EmailUnsubscribe } from '~/platform/mail/layout'
import { site } from '~/site.config'
import { ActivityEmail } from './emails/activity'
import { DigestEmail } from './emails/digest'
import { postLinkOf } from './grouping'
import type { MailingList } from './preferences'
import { emailUnsubscribe } from './unsubscribe.server'

/**
 * The member-facing e-mails of the notifications and the events, rendered as they are queued
 * (mail.server.ts: the HTML and the plain-text part) from realistic Spanish data. Each rendering
 * is also written to test-results/emails/ (git-ignored) so a person can open it in a browser.
 */

const OUT_DIR = path.resolve('test-results/emails')
const APP = () => getEnv().APP_URL

const MEMBER = '0b8f6c1e-3a52-4d7e-9f10-2c4b6a8d9e01'
const POST = '5d1c2b7a-8e94-4f3b-a6c0-71e2d9b4f853'
const POST_2 = 'c3a9e0f4-12b6-4d8a-9e57-6f0b1c2d3e4a'
const POST_3 = '9e7d6c5b-4a39-4281-8f7e-6d5c4b3a2910'
const COMMENT = 'a7f3e2d1-6c5b-4a98-b7e6-d5c4b3a29180'
const COMMENT_2 = 'e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9'
const SESSION = '2f4e6d8c-1b3a-4597-8e6d-4c2b0a9f8e7d'
const SESSION_2 = '7a6b5c4d-3e2f-4109-8a7b-6c5d4e3f2a1b'
const EVENT = '4c3b2a19-0f8e-47d6-95c4-b3a291807f6e'
const EVENT_2 = 'd9e8f7a6-b5c4-4d3e-a2f1-e0d9c8b7a695'

/** ~120 characters, with accents and the «» the app wraps titles in. */
const LONG_TITLE =
  'Cómo pasé de directora médica en una biotech española a consejera delegada: errores, aprendizajes y lo que haría distinto'
const SCRIPT_TITLE = '<script>alert("xss")</script> ¿Alguien ha negociado un bonus en una farmacéutica?'
const ESCAPED_SCRIPT = '&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;'

/** One signing time for the whole file: the links rendered and the links expected carry the same expiry. */
const SIGNED_AT = Date.now()

const unsubscribeFor = (lists: MailingList[]) => emailUnsubscribe(MEMBER, lists, SIGNED_AT).footer

interface Rendered {
  html: string
  text: string
}

async function renderAndSave(name: string, email: ReactElement): Promise<Rendered> {
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })])
  mkdirSync(OUT_DIR, { recursive: true })
  writeFileSync(path.join(OUT_DIR, `${name}.html`), html)
  writeFileSync(path.join(OUT_DIR, `${name}.txt`), text)
  return { html, text }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }
function decode(value: string) {
  return value.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity[0] === '#')
      return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : Number(entity.slice(1)))
    return ENTITIES[entity] ?? whole
  })
}

/** The text of an HTML fragment as a reader sees it: no tags, no React's `<!-- -->` separators, entities decoded. */
function textOf(fragment: string) {
  return decode(
    fragment
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<br\s*\/?>/gi, '\n')
      // Inline elements join their text to what surrounds it; block elements separate it.
      .replace(/<\/?(strong|b|em|i|span|a)\b[^>]*>/gi, '')
      .replace(/<[^>]+>/g, ' '),
  )
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .trim()
}

/** The body's visible text: what is inside <body>, minus the hidden preview. */
function bodyText(html: string) {
  const body = html.slice(html.indexOf('<body'))
  return textOf(body.replace(/<div[^>]*data-skip-in-text="true"[^>]*>[\s\S]*?<\/div>/, '')).replace(/\s+/g, ' ')
}

/** Every link of the HTML part: its decoded href and its visible text. */
function linksOf(html: string) {
  return [...html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)].map((match) => ({
    href: decode(/\bhref="([^"]*)"/.exec(match[1]!)?.[1] ?? ''),
    text: textOf(match[2]!).replace(/\s+/g, ' '),
  }))
}

/** The inbox preview: the hidden text React Email puts first in <body>, before its padding (none past 150 characters). */
function previewOf(html: string) {
  const match = /<div[^>]*data-skip-in-text="true"[^>]*>([^<]*)<\/?div/.exec(html)
  expect(match, 'the hidden preview').not.toBeNull()
  return decode(match![1]!)
}

/** The opening tag of the element whose text starts with `start`, to check its style. */
function openingTagBefore(html: string, start: string) {
  const at = html.indexOf(start)
  expect(at, start).toBeGreaterThan(0)
  return html.slice(html.lastIndexOf('<', at - 1), html.indexOf('>', html.lastIndexOf('<', at - 1)) + 1)
}

/** The opening <a> tag of the link whose visible text is `text`. */
function anchorTagOf(html: string, text: string) {
  const anchor = [...html.matchAll(/<a\b[^>]*>([\s\S]*?)<\/a>/gi)].find((match) => textOf(match[1]!).replace(/\s+/g, ' ') === text)
  expect(anchor, text).toBeDefined()
  return anchor![0].slice(0, anchor![0].indexOf('>') + 1)
}

/** The plain-text part's lines, trimmed, without blank ones. */
const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

const FOOTER = `${site.legalName} · ${site.address.full} · ${site.contactEmail}`

/** What every one of these e-mails must carry: Spanish, the brand, the way out, who sends it. */
function expectCommonParts({ html, text }: Rendered, unsubscribe: EmailUnsubscribe) {
  expect(html).toMatch(/^<!DOCTYPE html/i)
  expect(html).toMatch(/<html[^>]*\blang="es"/)
  expect(html).toMatch(/<meta[^>]*charset=["']?UTF-8/i)
  // Nothing executable and no raw markup leaks in from the data.
  expect(html).not.toMatch(/<script/i)
  // The layout: no browser margin around the message, a narrower side padding for phones, the brand at the top.
  expect(html).toMatch(/<body style="[^"]*\bmargin:0\b/)
  expect(html).toMatch(/<table[^>]*style="[^"]*max-width:560px[^"]*padding:32px 24px/)
  expect(openingTagBefore(html, `${site.name}</p>`)).toMatch(/margin-top:0\b/)

  const visible = bodyText(html)
  expect(visible).toContain(site.name)
  expect(visible).toContain(FOOTER)
  expect(visible).toContain('Recibes este email por tus preferencias de notificación.')
  const links = linksOf(html)
  for (const list of unsubscribe.lists) {
    expect(links).toContainEqual({ href: list.url, text: `Dejar de recibir: ${list.label}` })
  }
  expect(links).toContainEqual({ href: unsubscribe.preferencesUrl, text: 'Gestionar mis preferencias' })
  // The way out, one link a line: the sentence, then each list, then the preferences.
  const footer = html.slice(html.indexOf('Recibes este email por tus preferencias de notificación.'))
  expect(textOf(footer.slice(0, footer.indexOf('</p>'))).split('\n')).toEqual([
    'Recibes este email por tus preferencias de notificación.',
    ...unsubscribe.lists.map((list) => `Dejar de recibir: ${list.label}`),
    'Gestionar mis preferencias',
  ])

  // The plain-text part: the same footer and way out, links written out in full, no markup.
  expect(text).not.toMatch(/<\/?(html|head|body|table|tbody|tr|td|div|p|a|span|h1|h2|br|strong|img|meta|link|style)\b[^>]*>/i)
  expect(text).not.toMatch(/&(amp|lt|gt|quot|nbsp|#x?[0-9a-f]+);/i)
  expect(text).toContain(site.name)
  expect(text).toContain(FOOTER)
  expect(text).toContain('Recibes este email por tus preferencias de notificación.')
  const lines = linesOf(text)
  const wayOut = lines.indexOf('Recibes este email por tus preferencias de notificación.')
  expect(lines.slice(wayOut, wayOut + unsubscribe.lists.length + 2)).toEqual([
    'Recibes este email por tus preferencias de notificación.',
    ...unsubscribe.lists.map((list) => `Dejar de recibir: ${list.label} ${list.url}`),
    `Gestionar mis preferencias ${unsubscribe.preferencesUrl}`,
  ])
}

/** A call-to-action button: the link in the HTML, and in both parts the fallback with its address. */
function expectButton({ html, text }: Rendered, label: string, href: string) {
  expect(linksOf(html)).toContainEqual({ href, text: label })
  expect(bodyText(html)).toContain(`Si el botón no funciona, copia este enlace en tu navegador: ${href}`)
  // A long address breaks anywhere rather than widen the message past a phone's screen; the
  // sentence's own words break only between words.
  expect(html).toContain(`<span style="word-break:break-word;overflow-wrap:anywhere">${href}</span>`)
  expect(openingTagBefore(html, 'Si el botón no funciona')).not.toMatch(/word-break/)
  expect(text).toContain(`${label} ${href}`)
  expect(text).toContain(`Si el botón no funciona, copia este enlace en tu navegador: ${href}`)
}

/** html-to-text writes <h1>/<h2> in capitals in the plain-text part. */
const asHeading = (value: string) => value.toLocaleUpperCase('es')

describe('activity e-mail (ActivityEmail)', () => {
  const one = {
    title: 'Nuevo comentario',
    message: `María José Núñez ha comentado en tu post «${LONG_TITLE}»`,
    url: () => `${APP()}/comunidad?comentarios=${POST}#comment-${COMMENT}`,
    linkText: 'Ver el comentario',
  }
  let single: Rendered
  let four: Rendered
  let fourItems: Array<{ title: string; message: string; url: string; linkText: string }>
  const singleUnsubscribe = () => unsubscribeFor(['comments'])
  const fourUnsubscribe = () => unsubscribeFor(['likes', 'replies', 'sessions', 'events'])

  beforeAll(async () => {
    single = await renderAndSave(
      'activity-1-item',
      ActivityEmail({
        firstName: 'José Ángel',
        items: [{ title: one.title, message: one.message, url: one.url(), linkText: one.linkText }],
        notificationsUrl: `${APP()}/notificaciones`,
        unsubscribe: singleUnsubscribe(),
      }),
    )
    // As activity-email.server.ts builds them: linkOf() for the address, linkTextOf() for its words.
    fourItems = [
      {
        title: 'Nuevo like',
        message: 'A Íñigo Martínez, Sofía Peña y 3 más les gusta tu publicación',
        url: `${APP()}${postLinkOf(POST)}`,
        linkText: 'Ver la publicación',
      },
      {
        title: 'Nueva respuesta',
        message: `Lucía Gómez-Ibáñez ha respondido a tu comentario en «${SCRIPT_TITLE}»`,
        url: `${APP()}/comunidad?comentarios=${POST_2}#comment-${COMMENT_2}`,
        linkText: 'Ver el comentario',
      },
      {
        title: 'Nueva sesión',
        message: 'Ya puedes ver «De la I+D a la dirección general: conversación con Begoña Muñoz»',
        url: `${APP()}/video/${SESSION}`,
        linkText: 'Ver la sesión',
      },
      {
        title: 'Nuevo evento',
        message: '«Cena de networking en Barcelona: acceso al mercado en España»: regístrate para reservar tu plaza',
        url: `${APP()}/comunidad/calendario/${EVENT}`,
        linkText: 'Ver el evento',
      },
    ]
    four = await renderAndSave(
      'activity-4-items',
      ActivityEmail({
        firstName: 'Begoña',
        items: fourItems,
        notificationsUrl: `${APP()}/notificaciones`,
        unsubscribe: fourUnsubscribe(),
      }),
    )
  })

  test('one item: greeting, the singular intro, the notification and its exact link to the comment', () => {
    expectCommonParts(single, singleUnsubscribe())
    const visible = bodyText(single.html)
    expect(visible).toContain('Hola, José Ángel')
    expect(visible).toContain('Tienes una novedad en la comunidad:')
    expect(visible).toContain(one.title)
    expect(visible).toContain(one.message)
    expect(linksOf(single.html)).toContainEqual({ href: one.url(), text: 'Ver el comentario →' })
    expect(one.url()).toBe(`http://localhost:3000/comunidad?comentarios=${POST}#comment-${COMMENT}`)
    expect(visible).not.toContain('Ver en la comunidad')
    expectButton(single, 'Ver todas mis notificaciones', 'http://localhost:3000/notificaciones')

    expect(single.text).toContain(asHeading('Hola, José Ángel'))
    expect(single.text).toContain('Tienes una novedad en la comunidad:')
    expect(single.text).toContain(one.title)
    expect(single.text).toContain(one.message)
    expect(single.text).toContain(`Ver el comentario → ${one.url()}`)
  })

  test('the item links are 14px and say where they go', () => {
    const cases = [
      { html: single.html, linkText: one.linkText },
      ...fourItems.map((item) => ({ html: four.html, linkText: item.linkText })),
    ]
    for (const { html, linkText } of cases) expect(anchorTagOf(html, `${linkText} →`)).toMatch(/style="[^"]*font-size:14px/)
  })

  test('a long notification is cut for the inbox preview at a word, within 100 characters, with an ellipsis', () => {
    expect(one.message.length).toBeGreaterThan(100)
    const preview = previewOf(single.html)
    expect(preview).toBe('María José Núñez ha comentado en tu post «Cómo pasé de directora médica en una biotech española a…')
    const kept = preview.slice(0, -1)
    expect(preview.endsWith('…')).toBe(true)
    expect(kept.length).toBeLessThanOrEqual(100)
    expect(one.message.startsWith(kept)).toBe(true)
    // At a word boundary: what follows the kept part in the message is a space, and no half word is left.
    expect(one.message[kept.length]).toMatch(/\s/)
    expect(kept).not.toMatch(/\s$/)
    // The preview is hidden and left out of the plain-text part.
    expect(single.text).not.toContain(preview)
  })

  test('a short notification is the inbox preview as it is', () => {
    expect(fourItems[0]!.message.length).toBeLessThanOrEqual(100)
    expect(previewOf(four.html)).toBe(fourItems[0]!.message)
  })

  test('preview limits: 100 characters are kept whole; 101 are cut back to the last whole word', async () => {
    const withMessage = async (message: string) =>
      previewOf(
        await render(
          ActivityEmail({
            firstName: null,
            items: [{ title: 'Nuevo comentario', message, url: `${APP()}/notificaciones`, linkText: 'Ver mis notificaciones' }],
            notificationsUrl: `${APP()}/notificaciones`,
            unsubscribe: singleUnsubscribe(),
          }),
        ),
      )
    const hundred = `Ana Belén ha comentado en tu post «${'a'.repeat(100 - 'Ana Belén ha comentado en tu post «»'.length)}»`
    expect(hundred).toHaveLength(100)
    expect(await withMessage(hundred)).toBe(hundred)
    const longer = `${'palabra '.repeat(12)}largaextraordinariamente`
    expect(longer.length).toBeGreaterThan(100)
    expect(await withMessage(longer)).toBe(`${'palabra '.repeat(12).trimEnd()}…`)
  })

  test('four items: the plural intro, every notification with its own exact link and words, in order', () => {
    expectCommonParts(four, fourUnsubscribe())
    const visible = bodyText(four.html)
    expect(visible).toContain('Hola, Begoña')
    expect(visible).toContain('Tienes 4 novedades en la comunidad:')
    expect(visible).not.toContain('Ver en la comunidad')
    const itemLinks = linksOf(four.html).filter((link) => link.text.endsWith(' →'))
    expect(itemLinks).toEqual([
      { href: `http://localhost:3000/comunidad?comentarios=${POST}#post-${POST}`, text: 'Ver la publicación →' },
      { href: `http://localhost:3000/comunidad?comentarios=${POST_2}#comment-${COMMENT_2}`, text: 'Ver el comentario →' },
      { href: `http://localhost:3000/video/${SESSION}`, text: 'Ver la sesión →' },
      { href: `http://localhost:3000/comunidad/calendario/${EVENT}`, text: 'Ver el evento →' },
    ])
    let previous = -1
    for (const item of fourItems) {
      const at = visible.indexOf(`${item.title} ${item.message} ${item.linkText} →`)
      expect(at, item.message).toBeGreaterThan(previous)
      previous = at
    }
    expectButton(four, 'Ver todas mis notificaciones', 'http://localhost:3000/notificaciones')

    const lines = linesOf(four.text)
    expect(lines).toContain(asHeading('Hola, Begoña'))
    expect(lines).toContain('Tienes 4 novedades en la comunidad:')
    for (const item of fourItems) {
      const at = lines.indexOf(item.title)
      expect(at, item.title).toBeGreaterThanOrEqual(0)
      expect(lines.slice(at, at + 3)).toEqual([item.title, item.message, `${item.linkText} → ${item.url}`])
    }
  })

  test("a member's text with <script> is shown as text, escaped in the HTML", () => {
    expect(four.html).not.toContain('<script>alert')
    expect(four.html).toContain(`en «${ESCAPED_SCRIPT} ¿Alguien ha negociado un bonus en una farmacéutica?»`)
    expect(bodyText(four.html)).toContain(`Lucía Gómez-Ibáñez ha respondido a tu comentario en «${SCRIPT_TITLE}»`)
    // Plain text is not HTML: there the title is just the member's words.
    expect(four.text).toContain(`Lucía Gómez-Ibáñez ha respondido a tu comentario en «${SCRIPT_TITLE}»`)
  })
})

describe('digest e-mail (DigestEmail)', () => {
  const posts = () => [
    { title: LONG_TITLE, comments: 14, url: `${APP()}/comunidad?comentarios=${POST}#post-${POST}` },
    { title: SCRIPT_TITLE, comments: 1, url: `${APP()}/comunidad?comentarios=${POST_2}#post-${POST_2}` },
    {
      title: '¿Qué libro os ayudó más en vuestro primer año como director general?',
      comments: 6,
      url: `${APP()}/comunidad?comentarios=${POST_3}#post-${POST_3}`,
    },
  ]
  const sessions = () => [
    {
      title: 'Liderar una compañía de medtech en plena expansión internacional',
      ceo: 'Núria Puigdomènech · Ortoprótesis Ibérica',
      url: `${APP()}/video/${SESSION}`,
    },
    { title: 'El salto de España a la sede europea', ceo: 'Joaquín Sáenz · BioGénesis Pharma', url: `${APP()}/video/${SESSION_2}` },
  ]
  const events = () => [
    {
      title: 'Cena de networking en Barcelona',
      when: eventTimeInZone(new Date('2027-03-11T19:30:00Z'), 'Europe/Madrid'),
      type: EVENT_TYPES.presencial,
      url: `${APP()}/comunidad/calendario/${EVENT}`,
    },
    {
      title: 'Webinar: preparar la entrevista con el consejo de administración',
      when: eventTimeInZone(new Date('2027-03-16T17:00:00Z'), 'Europe/Madrid'),
      type: EVENT_TYPES.virtual,
      url: `${APP()}/comunidad/calendario/${EVENT_2}`,
    },
  ]
  const unsubscribe = () => unsubscribeFor(['digest'])
  let weekly: Rendered
  let daily: Rendered

  beforeAll(async () => {
    weekly = await renderAndSave(
      'digest-weekly',
      DigestEmail({
        firstName: 'Ramón',
        daily: false,
        posts: posts(),
        sessions: sessions(),
        events: events(),
        communityUrl: `${APP()}/comunidad`,
        unsubscribe: unsubscribe(),
      }),
    )
    daily = await renderAndSave(
      'digest-daily',
      DigestEmail({
        firstName: null,
        daily: true,
        posts: [],
        sessions: [],
        events: events(),
        communityUrl: `${APP()}/comunidad`,
        unsubscribe: unsubscribe(),
      }),
    )
  })

  test('weekly: the three sections, each item linked to its exact page with its detail line', () => {
    expectCommonParts(weekly, unsubscribe())
    expect(unsubscribe().lists[0]!.label).toBe('El resumen de la comunidad')
    const visible = bodyText(weekly.html)
    expect(visible).toContain('Hola, Ramón: esto es lo nuevo esta semana')
    const headings = ['Lo más activo en la comunidad', 'Nuevas sesiones CEO', 'Próximos eventos']
    let previous = -1
    for (const heading of headings) {
      expect(visible.indexOf(heading), heading).toBeGreaterThan(previous)
      previous = visible.indexOf(heading)
    }
    for (const heading of headings) expect(weekly.html).toMatch(new RegExp(`<h2[^>]*>${heading}</h2>`))

    const links = linksOf(weekly.html)
    expect(links).toContainEqual({ href: `http://localhost:3000/comunidad?comentarios=${POST}#post-${POST}`, text: LONG_TITLE })
    expect(links).toContainEqual({ href: `http://localhost:3000/comunidad?comentarios=${POST_2}#post-${POST_2}`, text: SCRIPT_TITLE })
    expect(links).toContainEqual({ href: `http://localhost:3000/video/${SESSION}`, text: sessions()[0]!.title })
    expect(links).toContainEqual({ href: `http://localhost:3000/video/${SESSION_2}`, text: sessions()[1]!.title })
    expect(links).toContainEqual({ href: `http://localhost:3000/comunidad/calendario/${EVENT}`, text: 'Cena de networking en Barcelona' })
    expect(links).toContainEqual({ href: `http://localhost:3000/comunidad/calendario/${EVENT_2}`, text: events()[1]!.title })
    expect(visible).toContain(`${LONG_TITLE} 14 comentarios nuevos`)
    expect(visible).toContain(`${SCRIPT_TITLE} 1 comentario nuevo`)
    expect(visible).toContain('Liderar una compañía de medtech en plena expansión internacional Núria Puigdomènech · Ortoprótesis Ibérica')
    expect(visible).toContain('Cena de networking en Barcelona Presencial · 11 de marzo de 2027, 20:30 (hora de Madrid)')
    expect(visible).toContain('Virtual · 16 de marzo de 2027, 18:00 (hora de Madrid)')
    expectButton(weekly, 'Ir a la comunidad', 'http://localhost:3000/comunidad')
    // The inbox preview names the three sections, as they are all there.
    expect(previewOf(weekly.html)).toBe('Lo más comentado, nuevas sesiones y próximos eventos esta semana')

    const lines = linesOf(weekly.text)
    expect(lines).toContain(asHeading('Hola, Ramón: esto es lo nuevo esta semana'))
    for (const heading of headings) expect(lines).toContain(asHeading(heading))
    for (const post of posts()) expect(weekly.text).toContain(`${post.title} ${post.url}`)
    expect(lines).toContain('14 comentarios nuevos')
    expect(lines).toContain('1 comentario nuevo')
    for (const session of sessions()) {
      expect(weekly.text).toContain(`${session.title} ${session.url}\n${session.ceo}`)
    }
    for (const event of events()) {
      expect(weekly.text).toContain(`${event.title} ${event.url}\n${event.type} · ${event.when}`)
    }
  })

  test('weekly: a post title with <script> is escaped in the HTML', () => {
    expect(weekly.html).not.toContain('<script>alert')
    expect(weekly.html).toContain(`${ESCAPED_SCRIPT} ¿Alguien ha negociado un bonus en una farmacéutica?`)
  })

  test('daily with only events: no empty sections, no name, "desde ayer"', () => {
    expectCommonParts(daily, unsubscribe())
    const visible = bodyText(daily.html)
    // Without a first name there is no greeting at all (not a bare 'Hola:').
    expect(daily.html).toMatch(/<h1[^>]*>Esto es lo nuevo desde ayer<\/h1>/)
    expect(visible).not.toMatch(/Hola\b/)
    expect(visible).toContain('Próximos eventos')
    expect(visible).not.toContain('Lo más activo en la comunidad')
    expect(visible).not.toContain('Nuevas sesiones CEO')
    expect(visible).not.toContain('comentario')
    const links = linksOf(daily.html)
    expect(links).toContainEqual({ href: `http://localhost:3000/comunidad/calendario/${EVENT}`, text: 'Cena de networking en Barcelona' })
    expect(links).toContainEqual({ href: `http://localhost:3000/comunidad/calendario/${EVENT_2}`, text: events()[1]!.title })
    expect(links.filter((link) => link.href.includes('/video/') || link.href.includes('comentarios='))).toEqual([])
    // The preview promises only what the e-mail has.
    expect(previewOf(daily.html)).toBe('Próximos eventos desde ayer')
    expectButton(daily, 'Ir a la comunidad', 'http://localhost:3000/comunidad')

    expect(linesOf(daily.text)).toContain(asHeading('Esto es lo nuevo desde ayer'))
    expect(daily.text).not.toMatch(/\b(HOLA|Hola)\b/)
    expect(daily.text).toContain(asHeading('Próximos eventos'))
    expect(daily.text).not.toContain(asHeading('Lo más activo en la comunidad'))
    for (const event of events()) {
      expect(daily.text).toContain(`${event.title} ${event.url}\n${event.type} · ${event.when}`)
    }
  })

  test('the preview and the heading follow the sections present and the name', async () => {
    const digest = async (firstName: string | null, daily: boolean, parts: { posts?: boolean; sessions?: boolean; events?: boolean }) => {
      const html = await render(
        DigestEmail({
          firstName,
          daily,
          posts: parts.posts ? posts() : [],
          sessions: parts.sessions ? sessions() : [],
          events: parts.events ? events() : [],
          communityUrl: `${APP()}/comunidad`,
          unsubscribe: unsubscribe(),
        }),
      )
      return { preview: previewOf(html), heading: textOf(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)![1]!) }
    }
    expect(await digest('Ana', true, { posts: true, events: true })).toEqual({
      preview: 'Lo más comentado y próximos eventos desde ayer',
      heading: 'Hola, Ana: esto es lo nuevo desde ayer',
    })
    expect(await digest(null, false, { sessions: true })).toEqual({
      preview: 'Nuevas sesiones esta semana',
      heading: 'Esto es lo nuevo esta semana',
    })
    expect(await digest('Ana', false, { posts: true })).toEqual({
      preview: 'Lo más comentado esta semana',
      heading: 'Hola, Ana: esto es lo nuevo esta semana',
    })
    expect(await digest(null, true, { posts: true, sessions: true, events: true })).toEqual({
      preview: 'Lo más comentado, nuevas sesiones y próximos eventos desde ayer',
      heading: 'Esto es lo nuevo desde ayer',
    })
  })
})

describe('event reminder e-mail (EventReminderEmail)', () => {
  const JOIN_URL = 'https://us02web.zoom.us/j/81234567890?pwd=aBcDeFgHiJkLmNoPqRsTuVwXyZ012345&uname=In%C3%A9s'
  const online = () => ({
    title: 'Webinar: preparar la entrevista con el consejo de administración',
    when: eventTimeInZone(new Date('2027-03-16T17:00:00Z'), 'Europe/Madrid'),
    eventUrl: `${APP()}/comunidad/calendario/${EVENT_2}`,
  })
  const inPerson = () => ({
    title: 'Cena de networking en Ciudad de México: el mercado farmacéutico latinoamericano',
    when: eventTimeInZone(new Date('2027-04-08T02:00:00Z'), 'America/Mexico_City'),
    location: 'Hotel Camino Real Polanco, Calzada General Mariano Escobedo 700, Anzures, 11590 Ciudad de México',
    eventUrl: `${APP()}/comunidad/calendario/${EVENT}`,
  })
  const unsubscribe = () => unsubscribeFor(['myEvents'])
  let withJoin: Rendered
  let withoutJoin: Rendered

  beforeAll(async () => {
    withJoin = await renderAndSave(
      'reminder-with-join-link',
      EventReminderEmail({ firstName: 'Inés', ...online(), location: null, joinUrl: JOIN_URL, unsubscribe: unsubscribe() }),
    )
    withoutJoin = await renderAndSave(
      'reminder-without-join-link',
      EventReminderEmail({ firstName: null, ...inPerson(), joinUrl: null, unsubscribe: unsubscribe() }),
    )
  })

  test('with a join link: who, what, when, the join address and the event page', () => {
    expectCommonParts(withJoin, unsubscribe())
    expect(unsubscribe().lists[0]!.label).toBe('Mis eventos: recordatorios y plazas liberadas')
    expect(online().when).toBe('16 de marzo de 2027, 18:00 (hora de Madrid)')
    const visible = bodyText(withJoin.html)
    expect(visible).toContain('Te esperamos, Inés')
    expect(withJoin.html).toMatch(/Tienes plaza en <strong>Webinar: preparar la entrevista con el consejo de administración<\/strong>\./)
    expect(visible).not.toContain('Estás registrado')
    expect(visible).toContain('Cuándo: 16 de marzo de 2027, 18:00 (hora de Madrid)')
    expect(visible).not.toContain('Dónde:')
    expect(visible).toContain(`Enlace para conectarte: ${JOIN_URL}`)
    expectButton(withJoin, 'Ver el evento', `http://localhost:3000/comunidad/calendario/${EVENT_2}`)
    expect(visible).toContain('Si ya no puedes asistir, cancela tu registro en la página del evento: tu plaza pasará a otro miembro.')
    expect(previewOf(withJoin.html)).toBe(
      'Webinar: preparar la entrevista con el consejo de administración: 16 de marzo de 2027, 18:00 (hora de Madrid)',
    )

    expect(withJoin.text).toContain(asHeading('Te esperamos, Inés'))
    expect(withJoin.text).toContain('Tienes plaza en Webinar: preparar la entrevista con el consejo de administración.')
    expect(withJoin.text).toContain('Cuándo: 16 de marzo de 2027, 18:00 (hora de Madrid)')
    // The address is written once: html-to-text does not repeat a link whose text is its address.
    expect(linesOf(withJoin.text)).toContain(`Enlace para conectarte: ${JOIN_URL}`)
    expect(withJoin.text.split(JOIN_URL)).toHaveLength(2)
    expect(withJoin.text).toContain('Si ya no puedes asistir, cancela tu registro en la página del evento: tu plaza pasará a otro miembro.')
  })

  test('the join address is a real link in the HTML part, and breaks anywhere on a narrow screen', () => {
    expect(linksOf(withJoin.html)).toContainEqual({ href: JOIN_URL, text: JOIN_URL })
    expect(anchorTagOf(withJoin.html, JOIN_URL)).toMatch(/style="[^"]*word-break:break-word;overflow-wrap:anywhere/)
    expect(withJoin.html).toMatch(/Enlace para conectarte:(<!-- -->)? <a\b/)
  })

  test('without a join link, in person: the place, no join line, no name', () => {
    expectCommonParts(withoutJoin, unsubscribe())
    expect(inPerson().when).toBe('7 de abril de 2027, 20:00 (hora de Ciudad de México)')
    const visible = bodyText(withoutJoin.html)
    expect(withoutJoin.html).toMatch(/<h1[^>]*>Te esperamos<\/h1>/)
    expect(visible).toContain(`Tienes plaza en ${inPerson().title}.`)
    expect(visible).toContain('Cuándo: 7 de abril de 2027, 20:00 (hora de Ciudad de México)')
    expect(visible).toContain(`Dónde: ${inPerson().location}`)
    expect(withoutJoin.html).toMatch(/Cuándo: <!-- -->[^<]+<br\/?>Dónde: /)
    expect(visible).not.toContain('Enlace para conectarte')
    expectButton(withoutJoin, 'Ver el evento', `http://localhost:3000/comunidad/calendario/${EVENT}`)
    expect(linksOf(withoutJoin.html).filter((link) => !link.href.startsWith('http://localhost:3000/'))).toEqual([])

    const lines = linesOf(withoutJoin.text)
    expect(lines).toContain(asHeading('Te esperamos'))
    expect(lines).toContain(`Tienes plaza en ${inPerson().title}.`)
    expect(lines).toContain('Cuándo: 7 de abril de 2027, 20:00 (hora de Ciudad de México)')
    expect(lines).toContain(`Dónde: ${inPerson().location}`)
    expect(withoutJoin.text).not.toContain('Enlace para conectarte')
  })
})
