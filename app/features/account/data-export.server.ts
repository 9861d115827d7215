import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type SQL, sql } from 'drizzle-orm'
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'
import { createElement } from 'react'
import { readSignedToken, signedToken } from '~/platform/auth/signature.server'
import { getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { refuse } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { logger } from '~/platform/logger.server'
import { enqueueMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { checkRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { getStorage, isValidKey } from '~/platform/storage/storage.server'

/**
 * 'Descargar mis datos' (GDPR articles 15 and 20, issue 27): a job gathers everything the app holds
 * about the member into one ZIP (a readable JSON and their files), stores it, and e-mails a link
 * that works for 48 hours and only for them, signed in. One a day.
 */

export const EXPORT_LINK_HOURS = 48
const PURPOSE = 'data-export'

export const EXPORT_MESSAGES = {
  queued: 'Estamos preparando tus datos. Te enviaremos un email con el enlace de descarga en unos minutos.',
  once: 'Ya pediste tus datos hoy. Podrás pedirlos de nuevo mañana; el enlace del email sigue valiendo 48 horas.',
  gone: 'Este enlace de descarga ya no es válido. Pide tus datos de nuevo desde tu perfil.',
} as const

const keyOf = (userId: string, exportId: string) => `exports/${userId}/${exportId}.zip`

export async function requestDataExport(userId: string) {
  const limited = await checkRateLimits([{ key: `data-export:${userId}`, max: 1, windowSeconds: 24 * 60 * 60 }])
  if (limited) refuse(429, EXPORT_MESSAGES.once)
  await queueDataExport(userId)
  return redirectWithToast('/perfil#tus-datos', { type: 'success', title: EXPORT_MESSAGES.queued })
}

/** The export itself, also run by an admin at the member's request (the link goes to the member all the same). */
export async function queueDataExport(userId: string) {
  await enqueue(dataExportJob, { userId, exportId: randomUUID() })
}

/**
 * Every table that holds something of the member, whole rows on purpose (the right of access is
 * to everything; a column added later is included without touching this), minus what is a secret
 * of the app rather than the member's data: password hashes, session tokens, the calendar feed's
 * token, full-text search columns.
 */
const SECTIONS: Array<[string, (id: string) => SQL]> = [
  [
    'cuenta',
    (id) =>
      sql`select id, name, email, email_verified, first_name, last_name, two_factor_enabled, created_at, updated_at from "user" where id = ${id}`,
  ],
  ['perfil', (id) => sql`select * from profiles where user_id = ${id}`],
  ['roles', (id) => sql`select role, created_at from user_roles where user_id = ${id}`],
  ['preferencias_de_notificacion', (id) => sql`select * from notification_settings where user_id = ${id}`],
  ['publicaciones', (id) => sql`select * from community_posts where user_id = ${id} order by created_at`],
  [
    'adjuntos',
    (id) =>
      sql`select a.id, a.post_id, a.file_name, a.file_type, a.file_size, a.created_at from post_attachments a join community_posts p on p.id = a.post_id where p.user_id = ${id}`,
  ],
  ['comentarios', (id) => sql`select * from community_comments where user_id = ${id} order by created_at`],
  ['likes_a_publicaciones', (id) => sql`select * from post_likes where user_id = ${id}`],
  ['likes_a_comentarios', (id) => sql`select * from comment_likes where user_id = ${id}`],
  ['sesiones_ceo_likes', (id) => sql`select * from ceo_session_likes where user_id = ${id}`],
  ['sesiones_ceo_comentarios', (id) => sql`select * from ceo_session_comments where user_id = ${id} order by created_at`],
  ['sesiones_ceo_progreso', (id) => sql`select * from ceo_session_progress where user_id = ${id}`],
  ['eventos_inscripciones', (id) => sql`select * from event_attendees where user_id = ${id}`],
  ['notificaciones', (id) => sql`select * from notifications where user_id = ${id} order by created_at`],
  ['suscripciones', (id) => sql`select * from subscriptions where user_id = ${id}`],
  ['dias_de_actividad', (id) => sql`select day from member_activity_days where user_id = ${id} order by day`],
  [
    'dispositivos_con_sesion',
    (id) => sql`select created_at, updated_at, expires_at, ip_address, user_agent from session where user_id = ${id}`,
  ],
  ['llaves_de_acceso', (id) => sql`select name, device_type, backed_up, transports, created_at from passkey where user_id = ${id}`],
  ['dispositivos_conocidos', (id) => sql`select device, first_seen_at, last_seen_at from known_devices where user_id = ${id}`],
  [
    'solicitudes_de_admision',
    (
      id,
    ) => sql`select id, email, first_name, last_name, phone, linkedin_url, company, position, sector, years_experience, target_role, contribution,
            expectations, referral, status, created_at, updated_at, closed_at, invitation_used_at
     from admission_applications where user_id = ${id} or email = (select email from "user" where id = ${id})`,
  ],
  [
    'solicitudes_de_admision_historial',
    (
      id,
    ) => sql`select e.application_id, e.kind, e.body, e.created_at from admission_events e join admission_applications a on a.id = e.application_id
     where a.user_id = ${id} or a.email = (select email from "user" where id = ${id}) order by e.created_at`,
  ],
  [
    'informes_enviados',
    (id) => sql`select kind, item_id, reason, note, status, created_at, closed_at from moderation_reports where user_id = ${id}`,
  ],
  // What moderators decided about their writing, never who decided.
  [
    'decisiones_de_moderacion',
    (id) => sql`select kind, item_id, action, reason, created_at from moderation_decisions where user_id = ${id}`,
  ],
  ['registro_de_acciones', (id) => sql`select * from audit_log where actor_user_id = ${id} or target_user_id = ${id} order by created_at`],
]

/**
 * Every table with a column naming a member, and where it goes in the export (a section of
 * mis-datos.json) or why it does not. data-export.test.ts reads the database's own list: a new
 * table with such a column fails it until it is added here.
 */
export const MEMBER_TABLES: Record<string, { section: string } | { not: string }> = {
  user: { section: 'cuenta' },
  profiles: { section: 'perfil' },
  user_roles: { section: 'roles' },
  notification_settings: { section: 'preferencias_de_notificacion' },
  community_posts: { section: 'publicaciones' },
  community_comments: { section: 'comentarios' },
  post_likes: { section: 'likes_a_publicaciones' },
  comment_likes: { section: 'likes_a_comentarios' },
  ceo_session_likes: { section: 'sesiones_ceo_likes' },
  ceo_session_comments: { section: 'sesiones_ceo_comentarios' },
  ceo_session_progress: { section: 'sesiones_ceo_progreso' },
  event_attendees: { section: 'eventos_inscripciones' },
  notifications: { section: 'notificaciones' },
  subscriptions: { section: 'suscripciones' },
  member_activity_days: { section: 'dias_de_actividad' },
  session: { section: 'dispositivos_con_sesion' },
  known_devices: { section: 'dispositivos_conocidos' },
  passkey: { section: 'llaves_de_acceso' },
  admission_applications: { section: 'solicitudes_de_admision' },
  admission_events: { section: 'solicitudes_de_admision_historial' },
  audit_log: { section: 'registro_de_acciones' },
  moderation_reports: { section: 'informes_enviados' },
  moderation_decisions: { section: 'decisiones_de_moderacion' },
  account: { not: "the password's hash: a secret of the sign-in, not data about the member" },
  two_factor: { not: 'the two-factor secret and recovery codes, encrypted: secrets (the export says whether it is on)' },
  calendar_feeds: { not: "the private calendar feed's token: a secret that opens the feed" },
  test_checkout_sessions: { not: 'the local test checkout of a laptop, never a real payment' },
  ceo_sessions: { not: 'sessions created by staff as part of their work for the community, not their personal data' },
  ceo_session_video_uploads: { not: 'upload progress of a staff member, deleted when the upload ends' },
  events: { not: 'events created by staff as part of their work for the community' },
}

async function gather(userId: string) {
  const data: Record<string, unknown> = {
    generado: new Date().toISOString(),
    explicacion:
      'Todos los datos que Círculo CEO guarda sobre ti, tabla por tabla. Las fechas están en UTC. Tus archivos (foto y adjuntos) van en la carpeta archivos/.',
  }
  for (const [name, query] of SECTIONS) {
    const result = await getDb().execute(query(userId))
    data[name] = (result as unknown as { rows: unknown[] }).rows
  }
  return data
}

/** The member's stored files: the current avatar and their posts' attachments. */
export async function filesOf(userId: string): Promise<Array<{ key: string; name: string }>> {
  const result = await getDb().execute(sql`
    select split_part(substring(avatar_url from '^/uploads/([^?]+)'), '?', 1) as key, 'foto-de-perfil.webp' as name
    from profiles where user_id = ${userId} and avatar_url like '/uploads/%'
    union all
    select a.file_path, a.id || '-' || a.file_name from post_attachments a join community_posts p on p.id = a.post_id where p.user_id = ${userId}`)
  return ((result as unknown as { rows: Array<{ key: string | null; name: string }> }).rows ?? []).filter(
    (row): row is { key: string; name: string } => Boolean(row.key && isValidKey(row.key)),
  )
}

async function readAll(stream: ReadableStream<Uint8Array>) {
  const chunks: Uint8Array[] = []
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk)
  return Buffer.concat(chunks)
}

/** Writes the ZIP to a temporary file as it is made (one stored file in memory at a time). */
async function writeZip(file: string, data: Record<string, unknown>, files: Array<{ key: string; name: string }>) {
  const out = createWriteStream(file)
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve)
    out.on('error', reject)
  })
  const zip = new Zip((error, chunk, final) => {
    if (error) return out.destroy(error)
    out.write(chunk)
    if (final) out.end()
  })
  const json = new ZipDeflate('mis-datos.json', { level: 6 })
  zip.add(json)
  json.push(new TextEncoder().encode(JSON.stringify(data, null, 2)), true)
  const storage = getStorage()
  for (const { key, name } of files) {
    const stored = await storage.get(key)
    if (!stored) continue
    // Images and documents are compressed already.
    const entry = new ZipPassThrough(`archivos/${name.replace(/[/\\]/g, '_')}`)
    zip.add(entry)
    entry.push(await readAll(stored.body), true)
  }
  zip.end()
  await done
}

export const dataExportJob = defineJob<{ userId: string; exportId: string }>({
  name: 'account.data-export',
  label: 'Exportación de datos de un miembro',
  timeoutSeconds: 600,
  async run({ userId, exportId }) {
    const data = await gather(userId)
    const account = (data.cuenta as Array<{ email: string; first_name: string | null }>)[0]
    if (!account) return
    const folder = await mkdtemp(path.join(tmpdir(), 'export-'))
    try {
      const file = path.join(folder, 'export.zip')
      await writeZip(file, data, await filesOf(userId))
      await getStorage().putFile(keyOf(userId, exportId), file, 'application/zip')
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
    await enqueue(expireExportJob, { userId, exportId }, { runAt: new Date(Date.now() + EXPORT_LINK_HOURS * 3600 * 1000) })
    const url = `${getEnv().APP_URL}/perfil/datos/${signedToken(PURPOSE, exportId, EXPORT_LINK_HOURS * 3600)}`
    await enqueueMail({
      to: account.email,
      subject: 'Tus datos están listos para descargar',
      email: createElement(NoticeEmail, {
        title: 'Tus datos están listos',
        firstName: account.first_name,
        paragraphs: [
          'Hemos preparado un archivo ZIP con todos los datos que guardamos sobre ti: un JSON legible y tus archivos.',
          `El enlace funciona durante ${EXPORT_LINK_HOURS} horas y solo con tu sesión iniciada. Después borraremos el archivo.`,
        ],
        button: { label: 'Descargar mis datos', url },
      }),
    })
  },
})

/** The file goes when its link stops working. */
export const expireExportJob = defineJob<{ userId: string; exportId: string }>({
  name: 'account.data-export.expire',
  label: 'Borrado de una exportación de datos caducada',
  async run({ userId, exportId }) {
    await getStorage().delete(keyOf(userId, exportId))
    logger.info({ userId, exportId }, 'Data export deleted after its link expired')
  },
})

/** The ZIPs of the member's exports still stored (each waits for its expiry job): an account deleted takes them. */
export async function exportKeysOf(userId: string) {
  const result = await getDb().execute(sql`
    select payload->>'exportId' as "exportId" from jobs
    where name = ${expireExportJob.name} and status in ('queued', 'running') and payload->>'userId' = ${userId}`)
  return (result as unknown as { rows: Array<{ exportId: string }> }).rows.map(({ exportId }) => ({ key: keyOf(userId, exportId) }))
}

/** The download when the link is genuine and current and the file is the signed-in member's own; else null. */
export async function openDataExport(userId: string, token: string) {
  const link = readSignedToken(PURPOSE, token)
  if (link.status !== 'valid' || !/^[0-9a-f-]{36}$/.test(link.id)) return null
  const stored = await getStorage().get(keyOf(userId, link.id))
  if (!stored) return null
  return new Response(stored.body, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': 'attachment; filename="mis-datos-circulo-ceo.zip"',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ...(stored.size ? { 'Content-Length': String(stored.size) } : {}),
    },
  })
}
