import { and, eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { getEnv } from '~/platform/env.server'
import { getDb } from '~/platform/db/client.server'
import { auditLog } from '~/platform/audit/schema'
import { notificationSettings } from '~/features/notifications/schema'
import { passkey, session } from '~/platform/auth/schema'
import { profiles } from './schema'
import * as perfilRoute from './profile.route'
import { PROFILE_PART_FAILED } from './profile.route'
import * as uploadsRoute from '~/platform/storage/uploads.route'
import { getStorage, setStorage } from '~/platform/storage/storage.server'
import { getAuth } from '~/features/account/auth.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { pixelBombPng } from '../../../tests/setup/images'
import { BASE_URL, createConfirmedUser, formRequest, getRequest, run, TEST_IP } from '../../../tests/setup/requests'

useTestDatabase()

const context = { cspNonce: 'test' }
const profileAction = (request: Request) => run(() => perfilRoute.action({ request, params: {}, context } as any))
/** The password form, sent as the member with `cookie`. */
const changePassword = (cookie: string | undefined, currentPassword: string, newPassword = 'nueva-clave-1') =>
  profileAction(formRequest('/perfil', { intent: 'password', currentPassword, newPassword, confirmPassword: newPassword }, { cookie }))
const profileOf = async (userId: string) => (await getDb().select().from(profiles).where(eq(profiles.userId, userId)))[0]!

describe('profile form', () => {
  test.each([
    [{ firstName: 'x'.repeat(51) }, 'firstName', 'El nombre debe tener menos de 50 caracteres'],
    [{ lastName: 'x'.repeat(51) }, 'lastName', 'El apellido debe tener menos de 50 caracteres'],
    [{ bio: 'x'.repeat(501) }, 'bio', 'La biografía debe tener menos de 500 caracteres'],
    [{ company: 'x'.repeat(101) }, 'company', 'La empresa debe tener menos de 100 caracteres'],
    [{ position: 'x'.repeat(101) }, 'position', 'El cargo debe tener menos de 100 caracteres'],
    [{ company: 'Uno\u202Eowt' }, 'company', 'Contiene caracteres no válidos'],
    [{ firstName: 'Ana\nGil' }, 'firstName', 'Contiene caracteres no válidos'],
  ])('refuses %o with the spec message and changes nothing', async (fields, field, message) => {
    const { cookie, userId } = await createConfirmedUser({ firstName: 'Ana', lastName: 'Gil' })
    const outcome = await profileAction(formRequest('/perfil', { intent: 'profile', ...fields }, { cookie }))
    expect(outcome.status).toBe(400)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Error en los datos del formulario' } })
    expect(outcome.data.submission.error[field]).toEqual([message])
    expect(await profileOf(userId)).toMatchObject({ firstName: 'Ana', lastName: 'Gil', company: null })
  })

  // The invisible direction marks reorder a name as the overrides do: left-to-right mark,
  // right-to-left mark, Arabic letter mark.
  test.each([
    ['U+200E', '\u200E'],
    ['U+200F', '\u200F'],
    ['U+061C', '\u061C'],
  ])('refuses the direction mark %s in a first or last name and changes nothing', async (_name, mark) => {
    const { cookie, userId } = await createConfirmedUser({ firstName: 'Ana', lastName: 'Gil' })
    for (const field of ['firstName', 'lastName']) {
      const outcome = await profileAction(formRequest('/perfil', { intent: 'profile', [field]: `Ana${mark}exe.gnp` }, { cookie }))
      expect(outcome.status).toBe(400)
      expect(outcome.data.submission.error[field]).toEqual(['Contiene caracteres no válidos'])
    }
    expect(await profileOf(userId)).toMatchObject({ firstName: 'Ana', lastName: 'Gil' })
  })

  test('saves trimmed values, empty ones as null, keeps line breaks in the bio', async () => {
    const { cookie, userId } = await createConfirmedUser()
    const outcome = await profileAction(
      formRequest(
        '/perfil',
        {
          intent: 'profile',
          firstName: '  Carmen ',
          lastName: '',
          company: ' BioFarma ',
          position: 'CEO',
          bio: 'Línea 1\nLínea 2 <b>no html</b>',
        },
        { cookie },
      ),
    )
    expect(outcome.status).toBe(302)
    expect(outcome.location).toBe('/perfil')
    expect(await profileOf(userId)).toMatchObject({
      firstName: 'Carmen',
      lastName: null,
      company: 'BioFarma',
      position: 'CEO',
      bio: 'Línea 1\nLínea 2 <b>no html</b>',
    })
  })

  test('cannot touch privileged fields (premium, customer id) through the form', async () => {
    const { cookie, userId } = await createConfirmedUser()
    await profileAction(
      formRequest(
        '/perfil',
        { intent: 'profile', firstName: 'Eva', isPremium: 'true', stripeCustomerId: 'cus_x', userId: 'other' },
        { cookie },
      ),
    )
    expect(await profileOf(userId)).toMatchObject({ firstName: 'Eva', isPremium: false, stripeCustomerId: null })
  })

  test('anonymous visitors are sent to /auth', async () => {
    const outcome = await profileAction(formRequest('/perfil', { intent: 'profile', firstName: 'X' }))
    expect(outcome.status).toBe(302)
    expect(outcome.location).toMatch(/^\/auth\?redirectTo=/)
  })

  test('the e-mail notifications preference is saved for real', async () => {
    const { cookie, userId } = await createConfirmedUser()
    expect((await profileOf(userId)).emailNotifications).toBe(true)
    const off = await profileAction(formRequest('/perfil', { intent: 'notifications' }, { cookie }))
    expect(off.status).toBe(302)
    expect(off.location).toBe('/perfil')
    expect((await profileOf(userId)).emailNotifications).toBe(false)
    const on = await profileAction(formRequest('/perfil', { intent: 'notifications', emailNotifications: 'on' }, { cookie }))
    expect(on.status).toBe(302)
    expect((await profileOf(userId)).emailNotifications).toBe(true)
  })
})

describe('change password', () => {
  test('wrong current password is refused; success signs out the other devices only', async () => {
    const { cookie, email, password } = await createConfirmedUser()
    const other = await getAuth().api.signInEmail({ body: { email, password }, returnHeaders: true })
    const otherCookie = other.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')

    const wrong = await changePassword(cookie, 'nope-nope')
    expect(wrong.status).toBe(400)
    expect(wrong.data).toMatchObject({ ok: false, message: { title: 'La contraseña actual no es correcta' } })

    const short = await changePassword(cookie, password, 'corta')
    expect(short.status).toBe(400)
    expect(short.data).toMatchObject({ ok: false, message: { title: 'Revisa las contraseñas' } })
    expect(short.data.submission.error.newPassword).toEqual(['La contraseña debe tener al menos 8 caracteres'])

    const done = await changePassword(cookie, password)
    expect(done.status).toBe(302)
    expect(done.location).toBe('/perfil')
    expect(await getAuth().api.getSession({ headers: new Headers({ Cookie: otherCookie }) })).toBeNull()
    const fresh = done.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    expect(await getAuth().api.getSession({ headers: new Headers({ Cookie: fresh }) })).not.toBeNull()
  })
})

/** The photo form: a multipart post to /perfil with `intent=avatar` and the file in `avatar`. */
function uploadRequest(file: Blob, filename: string, { cookie }: { cookie?: string } = {}) {
  const body = new FormData()
  body.append('intent', 'avatar')
  body.append('avatar', file, filename)
  const headers = new Headers({ Origin: BASE_URL, 'x-app-client-ip': TEST_IP })
  if (cookie) headers.set('Cookie', cookie)
  return new Request(`${BASE_URL}/perfil`, { method: 'POST', body, headers })
}

const upload = profileAction
const serve = (key: string) =>
  run(() => uploadsRoute.loader({ request: getRequest(`/uploads/${key}`), params: { '*': key }, context } as any))

async function servedBytes(key: string) {
  const response = await uploadsRoute.loader({ request: getRequest(`/uploads/${key}`), params: { '*': key }, context } as any)
  return { response, bytes: Buffer.from(await response.arrayBuffer()) }
}

describe('avatar upload', () => {
  test('re-encodes to a 400×400 WebP without metadata, versions the URL, removes the old file', async () => {
    const { cookie, userId } = await createConfirmedUser()
    const photo = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#336699' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'GPS secreto', Artist: 'Cámara' } })
      .toBuffer()
    expect((await sharp(photo).metadata()).exif).toBeDefined()

    const first = await upload(uploadRequest(new Blob([photo], { type: 'image/jpeg' }), 'foto.jpg', { cookie }))
    expect(first.status).toBe(200)
    expect(first.data).toMatchObject({ ok: true, message: { title: 'Foto de perfil actualizada' } })
    expect(first.data.avatarUrl).toMatch(new RegExp(`^/uploads/avatars/${userId}/avatar_\\d+_[0-9a-f]{8}\\.webp\\?v=\\d+$`))
    expect((await profileOf(userId)).avatarUrl).toBe(first.data.avatarUrl)

    const firstKey = first.data.avatarUrl.slice('/uploads/'.length).split('?')[0]
    const { response, bytes } = await servedBytes(firstKey)
    expect(response.headers.get('content-type')).toBe('image/webp')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toContain('sandbox')
    const stored = await sharp(bytes).metadata()
    expect(stored).toMatchObject({ format: 'webp', width: 400, height: 400 })
    expect(stored.exif).toBeUndefined()

    await new Promise((resolve) => setTimeout(resolve, 5))
    const second = await upload(uploadRequest(new Blob([photo], { type: 'image/jpeg' }), 'otra.jpg', { cookie }))
    expect(second.data.avatarUrl).not.toBe(first.data.avatarUrl)
    expect((await serve(firstKey)).status).toBe(404)
  })

  test.each([
    ['HTML renamed .png', Buffer.from('<html><script>alert(1)</script></html>'.padEnd(64, ' ')), 'x.png', 'image/png', 415],
    [
      'SVG with script',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'x.svg',
      'image/svg+xml',
      415,
    ],
    [
      'truncated PNG',
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40)]),
      'x.png',
      'image/png',
      422,
    ],
  ])(
    'refuses %s with the spec message, storing nothing; a file that is no image at all is audited',
    async (_label, bytes, name, type, status) => {
      const { cookie, userId } = await createConfirmedUser()
      const outcome = await upload(uploadRequest(new Blob([bytes], { type }), name, { cookie }))
      expect(outcome.status).toBe(status)
      expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Por favor selecciona una imagen válida' } })
      expect((await profileOf(userId)).avatarUrl).toBeNull()
      const audited = await getDb()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'avatar_rejected'), eq(auditLog.actorUserId, userId)))
      expect(audited).toHaveLength(status === 415 ? 1 : 0)
    },
  )

  test('refuses a file over 5 MB while streaming', async () => {
    const { cookie } = await createConfirmedUser()
    const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(5 * 1024 * 1024)])
    const outcome = await upload(uploadRequest(new Blob([big], { type: 'image/png' }), 'big.png', { cookie }))
    expect(outcome.status).toBe(413)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'La imagen debe ser menor a 5MB' } })
  })

  test('refuses an image whose dimensions would explode in memory', async () => {
    const { cookie, userId } = await createConfirmedUser()
    const bomb = pixelBombPng(8000, 6000)
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024)
    const outcome = await upload(uploadRequest(new Blob([bomb], { type: 'image/png' }), 'bomb.png', { cookie }))
    expect(outcome.data.ok).toBe(false)
    expect((await profileOf(userId)).avatarUrl).toBeNull()
    // Too many pixels for the decoder: 413 with a message that says why (the feed answers the same).
    expect(outcome.status).toBe(413)
    expect(outcome.data.message.title).toBe('La imagen es demasiado grande (máximo 40 megapíxeles)')
  })

  test('regression guard, passes by construction today (the key never reads the file name): a file name cannot steer where it is stored', async () => {
    const { cookie, userId } = await createConfirmedUser()
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
      .png()
      .toBuffer()
    const outcome = await upload(uploadRequest(new Blob([png], { type: 'image/png' }), '../../../etc/passwd.png', { cookie }))
    expect(outcome.status).toBe(200)
    expect(outcome.data.avatarUrl.startsWith(`/uploads/avatars/${userId}/avatar_`)).toBe(true)
  })

  test('anonymous uploads are refused; a form post without JavaScript ends on /perfil with the message', async () => {
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#fff' } })
      .png()
      .toBuffer()
    const anonymous = await upload(uploadRequest(new Blob([png], { type: 'image/png' }), 'a.png'))
    expect(anonymous.status).toBe(302)
    expect(anonymous.location).toBe('/auth?redirectTo=%2Fperfil')

    // Without JavaScript the browser posts the form itself (no Accept: JSON): the answer is the /perfil page,
    // which shows the result's message (ActionStatus) and the new photo.
    const { cookie, userId } = await createConfirmedUser()
    const plain = await upload(uploadRequest(new Blob([png], { type: 'image/png' }), 'a.png', { cookie }))
    expect(plain.status).toBe(200)
    expect(plain.data).toMatchObject({ ok: true, message: { title: 'Foto de perfil actualizada' } })
    expect((await profileOf(userId)).avatarUrl).toBe(plain.data.avatarUrl)
    const page = await run(() => perfilRoute.loader({ request: getRequest('/perfil', { cookie }), params: {}, context } as any))
    expect(page.data.profile.avatarUrl).toBe(plain.data.avatarUrl)
  })

  test('the uploads route serves only avatars with server-made keys', async () => {
    // Every refused key names a file that exists, so each 404 comes from the rule, not from a missing file.
    await writeFile(path.join(getEnv().DATA_DIR, 'secret.webp'), 'fuera de uploads')
    await getStorage().put('avatars/x/a.html', Buffer.from('<script>'), 'text/html')
    await getStorage().put('other/x/a.webp', Buffer.from('RIFF'), 'image/webp')
    for (const key of ['avatars/../../secret.webp', 'avatars/x/../../../secret.webp', 'avatars/x/a.html', 'other/x/a.webp']) {
      expect((await serve(key)).status).toBe(404)
    }
  })
})

describe('unexpected internal errors show a fixed Spanish message, never the internal text', () => {
  const INTERNAL = 'db exploded: connection to 10.0.0.5 lost in profiles_pkey'
  afterEach(() => {
    vi.restoreAllMocks()
  })

  test("a failed profile save answers 500 'Error al guardar el perfil' and keeps the member's input", async () => {
    const { cookie, userId } = await createConfirmedUser({ firstName: 'Ana', lastName: 'Gil' })
    const db = getDb()
    const insert = db.insert.bind(db)
    vi.spyOn(db, 'insert').mockImplementation(((table: unknown) => {
      if (table === profiles) throw new Error(INTERNAL)
      return insert(table as never)
    }) as typeof db.insert)
    const outcome = await profileAction(formRequest('/perfil', { intent: 'profile', firstName: 'Carmen', company: 'BioFarma' }, { cookie }))
    vi.restoreAllMocks()
    expect(outcome.status).toBe(500)
    expect(outcome.data).toMatchObject({ ok: false, message: { title: 'Error al guardar el perfil' } })
    expect(outcome.data.submission.initialValue).toMatchObject({ firstName: 'Carmen', company: 'BioFarma' })
    expect(JSON.stringify(outcome.data)).not.toContain('db exploded')
    expect(await profileOf(userId)).toMatchObject({ firstName: 'Ana', company: null })
  })

  test('a password change that better-auth fails unexpectedly answers 500 with the fixed message', async () => {
    const { cookie, password } = await createConfirmedUser()
    vi.spyOn(getAuth().api, 'changePassword').mockRejectedValue(new Error(INTERNAL))
    const outcome = await changePassword(cookie, password)
    expect(outcome.status).toBe(500)
    expect(outcome.data).toMatchObject({
      ok: false,
      message: { title: 'Error al actualizar contraseña. Vuelve a intentarlo en unos minutos.' },
    })
    expect(JSON.stringify(outcome.data)).not.toContain('db exploded')
    expect(outcome.headers.getSetCookie()).toEqual([])
  })
})

/** The avatar files stored for a member (the local storage backend the tests use). */
async function storedAvatars(userId: string) {
  const folder = path.join(getEnv().DATA_DIR, 'uploads', 'avatars', userId)
  return (await readdir(folder).catch(() => [] as string[])).sort()
}

const keyOf = (avatarUrl: string) => avatarUrl.slice('/uploads/'.length).split('?')[0]!

describe('avatar upload: concurrency and rate limit', () => {
  const tinyPng = () =>
    sharp({ create: { width: 10, height: 10, channels: 3, background: '#369' } })
      .png()
      .toBuffer()

  test.each([
    ['without a photo yet', false],
    ['replacing a photo', true],
  ])('two uploads at once (%s) both answer without a 500 and leave exactly one photo, the one referenced', async (_label, withPrevious) => {
    const { cookie, userId } = await createConfirmedUser()
    const png = await tinyPng()
    if (withPrevious)
      expect((await upload(uploadRequest(new Blob([png], { type: 'image/png' }), 'antes.png', { cookie }))).status).toBe(200)

    // Both uploads reach the storage before either goes on: they truly overlap, whatever the timing.
    const storage = getStorage()
    let arrived = 0
    let release!: () => void
    const bothThere = new Promise<void>((resolve) => {
      release = resolve
      setTimeout(resolve, 2000) // an implementation that serializes uploads must not hang here
    })
    setStorage({
      ...storage,
      async put(key, body, contentType) {
        if (++arrived === 2) release()
        await bothThere
        return storage.put(key, body, contentType)
      },
    })
    let answers
    try {
      answers = await Promise.all([
        upload(uploadRequest(new Blob([png], { type: 'image/png' }), 'una.png', { cookie })),
        upload(uploadRequest(new Blob([png], { type: 'image/png' }), 'otra.png', { cookie })),
      ])
    } finally {
      setStorage(undefined)
    }
    expect(arrived).toBe(2)
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(200)
      expect(answer.status).toBeLessThan(500)
      expect(answer.status).not.toBeGreaterThanOrEqual(300) // a 3xx would be a lost upload
    }
    const referenced = (await profileOf(userId)).avatarUrl!
    expect(answers.map((answer) => answer.data.avatarUrl)).toContain(referenced)
    const files = await storedAvatars(userId)
    expect(files).toEqual([path.basename(keyOf(referenced))])
    expect((await serve(keyOf(referenced))).status).toBe(200)
  })

  test('after 10 uploads in 10 minutes the next is a 429 with the Spanish message, and the photo stays', async () => {
    const { cookie, userId } = await createConfirmedUser()
    const png = await tinyPng()
    let last
    for (let attempt = 0; attempt < 10; attempt++) {
      last = await upload(uploadRequest(new Blob([png], { type: 'image/png' }), `f${attempt}.png`, { cookie }))
      expect(last.status).toBe(200)
    }
    const kept = (await profileOf(userId)).avatarUrl
    expect(kept).toBe(last!.data.avatarUrl)

    const refused = await upload(uploadRequest(new Blob([png], { type: 'image/png' }), 'once.png', { cookie }))
    expect(refused.status).toBe(429)
    expect(refused.data).toMatchObject({
      ok: false,
      message: { title: 'Demasiados intentos. Espera 10 minutos y vuelve a intentarlo.' },
    })
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(540)
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(600)
    expect((await profileOf(userId)).avatarUrl).toBe(kept)
    expect(await storedAvatars(userId)).toEqual([path.basename(keyOf(kept!))])

    // The limit is the member's own: another member still uploads.
    const other = await createConfirmedUser()
    expect((await upload(uploadRequest(new Blob([png], { type: 'image/png' }), 'a.png', { cookie: other.cookie }))).status).toBe(200)
  })
})

describe('/perfil keeps its frame when one of its parts cannot be loaded (ADR 0012)', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  /** Every read of `table` through the app's client fails when it runs (its columns asked of a source without them). */
  function failReadsOf(table: unknown) {
    const db = getDb()
    const select = db.select.bind(db) as (...args: unknown[]) => { from: (source: unknown) => unknown }
    vi.spyOn(db, 'select').mockImplementation(((...args: unknown[]) => {
      const builder = select(...args)
      const from = builder.from.bind(builder)
      builder.from = (source: unknown) => {
        return from(source === table ? sql`(select 1) as gone` : source)
      }
      return builder
    }) as never)
  }

  const render = (loaderData: unknown) =>
    renderToString(
      createElement(RouterProvider, {
        router: createMemoryRouter(
          [{ path: '/perfil', element: createElement(perfilRoute.default as never, { loaderData, actionData: undefined }) }],
          {
            initialEntries: ['/perfil'],
          },
        ),
      }),
    )

  test.each([
    ['the notification preferences', notificationSettings, 'preferences', PROFILE_PART_FAILED.preferences],
    ['the devices signed in', session, 'devices', PROFILE_PART_FAILED.devices],
    ['the passkeys', passkey, 'passkeys', PROFILE_PART_FAILED.passkeys],
  ] as const)('%s failing: the page is there with that card saying so and Reintentar', async (_name, table, part, failed) => {
    const { cookie } = await createConfirmedUser({ firstName: 'Ana', lastName: 'Gil' })
    const loadPage = () => run(() => perfilRoute.loader({ request: getRequest('/perfil', { cookie }), params: {}, context } as any))
    const healthy = await loadPage()
    failReadsOf(table)
    const page = await loadPage()
    vi.restoreAllMocks()
    expect(page.status).toBe(200)
    expect(page.data[part]).toBeNull()
    // Everything else is as when nothing failed.
    const { [part]: _failed, ...rest } = page.data
    const { [part]: _loaded, ...expected } = healthy.data
    expect(rest).toEqual(expected)
    const html = render(page.data)
    expect(html).toContain(failed)
    expect(html).toContain('Reintentar')
    for (const title of ['Mi Perfil', 'Información personal', 'Notificaciones', 'Seguridad', 'Membresía']) expect(html).toContain(title)
    for (const other of Object.values(PROFILE_PART_FAILED).filter((text) => text !== failed)) expect(html).not.toContain(other)
  })
})
