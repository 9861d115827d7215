import { sql } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import { describe, expect, test } from 'vitest'
import { admissionApplications } from '~/features/admission/schema'
import { signedToken } from '~/platform/auth/signature.server'
import { getDb } from '~/platform/db/client.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { getStorage } from '~/platform/storage/storage.server'
import { useTestDatabase } from '../../../tests/setup/database'
import { createPostWithFiles, feedAction } from '../../../tests/setup/feed'
import { createPersona } from '../../../tests/setup/members'
import { firstLink, formRequest, getRequest, latestMailTo, readToast, run } from '../../../tests/setup/requests'
import * as exportRoute from './data-export.route'
import { EXPORT_MESSAGES, MEMBER_TABLES } from './data-export.server'
import * as profileRoute from './profile.route'

useTestDatabase()

const context = { cspNonce: 'test' }
const ask = (cookie: string) =>
  run(() => profileRoute.action({ request: formRequest('/perfil', { intent: 'export-data' }, { cookie }), params: {}, context } as any))
const download = (token: string, cookie?: string) =>
  run(() => exportRoute.loader({ request: getRequest(`/perfil/datos/${token}`, { cookie }), params: { token }, context } as any))
/** The download as the browser gets it (run() would read the ZIP as text). */
const downloadBytes = async (token: string, cookie: string) =>
  (await exportRoute.loader({ request: getRequest(`/perfil/datos/${token}`, { cookie }), params: { token }, context } as any)) as Response

async function exported(member: { cookie?: string; email?: string }) {
  const asked = await ask(member.cookie!)
  expect(asked.status).toBe(302)
  expect(await readToast(asked.headers)).toMatchObject({ title: EXPORT_MESSAGES.queued })
  await runDueJobs({ names: ['account.data-export'] })
  const mail = await latestMailTo(member.email!, 'Tus datos están listos para descargar')
  const token = new URL(firstLink(mail!.text)).pathname.split('/').pop()!
  return { token }
}

describe("'Descargar mis datos'", () => {
  test('the e-mailed link gives a ZIP with everything about the member, readable, with their files, and no secrets', async () => {
    const member = await createPersona('premium', { firstName: 'Carmen', lastName: 'Exporta' })
    const pdf = new TextEncoder().encode('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')
    const created = await createPostWithFiles(
      { title: 'Mi post exportado', postType: 'document' },
      [{ bytes: pdf, name: 'informe.pdf', type: 'application/pdf' }],
      member.cookie,
    )
    const postId = created.data.postId as string
    await feedAction({ intent: 'add-comment', postId, content: 'Mi comentario exportado' }, member.cookie)
    await feedAction({ intent: 'like-post', postId }, member.cookie)
    await getDb().insert(admissionApplications).values({
      email: member.email!,
      firstName: 'Carmen',
      lastName: 'Exporta',
      linkedinUrl: 'https://www.linkedin.com/in/carmen',
      company: 'Pharma SA',
      position: 'CFO',
      sector: 'pharma',
      yearsExperience: 20,
      targetRole: 'CEO',
      contribution: 'Finanzas',
      expectations: 'Red',
      status: 'approved',
      userId: member.userId,
    })

    const { token } = await exported(member)
    const response = await downloadBytes(token, member.cookie!)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toContain('mis-datos-circulo-ceo.zip')
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()))
    const json = new TextDecoder().decode(files['mis-datos.json'])
    const data = JSON.parse(json)
    expect(data.cuenta[0]).toMatchObject({ email: member.email, first_name: 'Carmen' })
    expect(data.publicaciones.map((post: { title: string }) => post.title)).toEqual(['Mi post exportado'])
    expect(data.comentarios.map((comment: { content: string }) => comment.content)).toEqual(['Mi comentario exportado'])
    expect(data.likes_a_publicaciones).toHaveLength(1)
    expect(data.solicitudes_de_admision[0]).toMatchObject({ company: 'Pharma SA', status: 'approved' })
    for (const section of ['suscripciones', 'dias_de_actividad', 'registro_de_acciones', 'notificaciones', 'eventos_inscripciones'])
      expect(Array.isArray(data[section])).toBe(true)
    // Its files: the post's attachment, byte for byte.
    const attachment = Object.keys(files).find((name) => name.startsWith('archivos/') && name.endsWith('informe.pdf'))
    expect(Buffer.from(files[attachment!]!)).toEqual(Buffer.from(pdf))
    // No secret of the app: no password hash, no session token.
    const sessionToken = decodeURIComponent(member.cookie!.split('=')[1]!).split('.')[0]!
    expect(json).not.toContain(sessionToken)
    expect(json).not.toMatch(/"password"|"token"/)
  })

  test('once a day; the link works only for its member, signed in, while it is current; the file goes after 48 hours', async () => {
    const member = await createPersona('member')
    const { token } = await exported(member)
    const again = await ask(member.cookie!)
    expect(again.status).toBe(429)
    expect(again.data.message.title).toBe(EXPORT_MESSAGES.once)

    const stranger = await createPersona('member')
    const theirs = await download(token, stranger.cookie)
    expect(theirs.location).toBe('/perfil#tus-datos')
    expect(await readToast(theirs.headers)).toMatchObject({ title: EXPORT_MESSAGES.gone })
    expect((await download(token)).location).toBe(`/auth?redirectTo=${encodeURIComponent(`/perfil/datos/${token}`)}`)
    const forged = `${token.slice(0, -2)}xx`
    expect((await download(forged, member.cookie)).location).toBe('/perfil#tus-datos')
    const exportId = token.split('.')[0]!
    const expired = signedToken('data-export', exportId, -1)
    expect((await download(expired, member.cookie)).location).toBe('/perfil#tus-datos')

    expect((await downloadBytes(token, member.cookie!)).status).toBe(200)
    const key = `exports/${member.userId}/${exportId}.zip`
    expect(await getStorage().size(key)).toBeGreaterThan(0)
    const { expireExportJob } = await import('./data-export.server')
    await expireExportJob.run({ userId: member.userId!, exportId }, { attempts: 1, jobId: 0 })
    expect(await getStorage().size(key)).toBeNull()
    expect((await download(token, member.cookie)).location).toBe('/perfil#tus-datos')
  })
})

describe('what the export covers', () => {
  test('every table with a column naming a member is exported or says why not; every section named is in the file', async () => {
    const result = (await getDb().execute(
      sql`select distinct table_name from information_schema.columns
          where table_schema = 'public' and column_name in ('user_id', 'actor_user_id', 'target_user_id', 'created_by', 'decided_by')
          union select 'user'`,
    )) as unknown as { rows: Array<{ table_name: string }> }
    const tables = result.rows.map((row) => row.table_name).sort()
    expect(
      tables.filter((table) => !(table in MEMBER_TABLES)),
      'tables to add to MEMBER_TABLES (data-export.server.ts)',
    ).toEqual([])

    const member = await createPersona('member')
    const { token } = await exported(member)
    const data = JSON.parse(
      new TextDecoder().decode(
        unzipSync(new Uint8Array(await (await downloadBytes(token, member.cookie!)).arrayBuffer()))['mis-datos.json'],
      ),
    )
    const sections = Object.values(MEMBER_TABLES).flatMap((cover) => ('section' in cover ? [cover.section] : []))
    expect(sections.filter((section) => !(section in data))).toEqual([])
  })
})
