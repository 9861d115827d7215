import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'
import { createElement } from 'react'
import { readSignedToken, signedToken } from '~/platform/auth/signature.server'
import { type DbExecutor, getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { refuse } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { logger } from '~/platform/logger.server'
import { enqueueMail } from '~/platform/mail/mail.server'
import { NoticeEmail } from '~/platform/mail/notice-email'
import { memberDataParts } from '~/platform/privacy/member-data'
import { checkRateLimits } from '~/platform/rate-limit/rate-limit.server'
import { getStorage, isValidKey } from '~/platform/storage/storage.server'

/**
 * 'Descargar mis datos' (GDPR articles 15 and 20, issue 27): a job gathers everything the app holds
 * about the member, as each feature declares it (its member-data.server.ts: theirs, never another
 * person's; decisions/0028), into one ZIP (a readable JSON and their files), stores it, and e-mails
 * a link that works for 48 hours and only for them, signed in. One a day.
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

/** Rows of a raw statement. */
const rowsOf = <Row>(result: unknown) => ((result as { rows?: Row[] }).rows ?? []) as Row[]

/** Every feature's sections of the member (their `member-data.server.ts`), in one JSON. */
async function gather(userId: string) {
  const data: Record<string, unknown> = {
    generado: new Date().toISOString(),
    explicacion:
      'Todos los datos que Círculo CEO guarda sobre ti, tabla por tabla. Las fechas están en UTC. Tus archivos (foto y adjuntos) van en la carpeta archivos/.',
  }
  for (const part of memberDataParts()) {
    for (const [name, query] of Object.entries(part.sections ?? {})) data[name] = rowsOf(await getDb().execute(query(userId)))
  }
  return data
}

/** The member's stored files, as every feature lists them. */
async function filesOf(userId: string) {
  const files: Array<{ key: string; name: string }> = []
  for (const part of memberDataParts()) {
    if (part.files)
      files.push(
        ...rowsOf<{ key: string | null; name: string }>(await getDb().execute(part.files(userId))).filter(
          (row): row is { key: string; name: string } => Boolean(row.key && isValidKey(row.key)),
        ),
      )
  }
  return files
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
export async function exportKeysOf(userId: string, executor: DbExecutor = getDb()) {
  const result = await executor.execute(sql`
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
