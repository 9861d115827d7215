import type Mux from '@mux/mux-node'
import { z } from 'zod'
import { type Env, getEnv } from '~/platform/env.server'
import { defineJob, enqueue } from '~/platform/jobs/jobs.server'
import { logger } from '~/platform/logger.server'
import type { VideoProvider } from './video-provider.types'
import {
  findSessionByMuxAssetId,
  findSessionByUploadId,
  markVideoFailed,
  markVideoProcessing,
  publishVideo,
  sessionsAwaitingVideo,
  type VideoStateRow,
} from './video-state.server'

/**
 * Session videos on Mux (spec 001 §4): the browser uploads straight to Mux, Mux tells us through
 * a signed webhook (mux-webhook.route.ts) and a job asks Mux about whatever the webhook missed.
 * Playback IDs are signed, so a video plays only with a token we mint for a member with access.
 */

/** How long a member's playback address works: long enough to watch a session in one go. */
const PLAYBACK_TOKEN_SECONDS = 60 * 60

let client: { env: Env; mux: Promise<Mux> } | undefined

/**
 * One SDK client per configuration (tests swap the configuration). The SDK is imported only when
 * Mux is used, because every process imports this module for its job.
 */
export function muxClient(env: Env = getEnv()): Promise<Mux> {
  if (client?.env === env) return client.mux
  if (!env.MUX_TOKEN_ID || !env.MUX_TOKEN_SECRET) throw new Error('Mux is not configured')
  const { MUX_TOKEN_ID: tokenId, MUX_TOKEN_SECRET: tokenSecret } = env
  const mux = import('@mux/mux-node').then(
    ({ default: MuxClient }) =>
      new MuxClient({
        tokenId,
        tokenSecret,
        webhookSecret: env.MUX_WEBHOOK_SECRET ?? null,
        // A hanging Mux must not hold an admin's request or the job for long; the job tries again.
        timeout: 10_000,
        maxRetries: 1,
        ...(env.MUX_API_BASE ? { baseURL: env.MUX_API_BASE } : {}),
      }),
  )
  client = { env, mux }
  mux.catch(() => {
    if (client?.mux === mux) client = undefined
  })
  return mux
}

function isNotFound(error: unknown) {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 404
}

export function muxProvider(env: Env): VideoProvider {
  const { MUX_SIGNING_KEY_ID: keyId, MUX_SIGNING_PRIVATE_KEY: keySecret } = env
  if (!keyId || !keySecret) throw new Error('Mux playback needs MUX_SIGNING_KEY_ID and MUX_SIGNING_PRIVATE_KEY')

  return {
    kind: 'mux',

    async createUpload({ sessionId, origin }) {
      const mux = await muxClient(env)
      const upload = await mux.video.uploads.create({
        // Mux answers the browser's preflight only for this origin.
        cors_origin: origin,
        timeout: 3600,
        new_asset_settings: {
          // Signed: the video never plays without a token minted for a member with access.
          playback_policies: ['signed'],
          // The asset names its session, so asset.ready finds it even if asset_created was lost.
          passthrough: sessionId,
          video_quality: 'basic',
        },
      })
      if (!upload.url) throw new Error(`Mux upload ${upload.id} came without an address`)
      return { uploadId: upload.id, uploadUrl: upload.url }
    },

    async playback(session) {
      if (!session.muxPlaybackId) return null
      const mux = await muxClient(env)
      const playbackId = session.muxPlaybackId
      const expiresAt = new Date((Math.floor(Date.now() / 1000) + PLAYBACK_TOKEN_SECONDS) * 1000)
      const options = { keyId, keySecret, expiration: `${PLAYBACK_TOKEN_SECONDS}s` }
      const [videoToken, thumbnailToken] = await Promise.all([
        mux.jwt.signPlaybackId(playbackId, { ...options, type: 'video' }),
        mux.jwt.signPlaybackId(playbackId, { ...options, type: 'thumbnail' }),
      ])
      const id = encodeURIComponent(playbackId)
      return {
        src: `https://stream.mux.com/${id}.m3u8?token=${videoToken}`,
        type: 'application/x-mpegURL',
        posterUrl: `https://image.mux.com/${id}/thumbnail.webp?token=${thumbnailToken}`,
        expiresAt,
      }
    },

    async deleteVideo(session) {
      const mux = await muxClient(env)
      if (session.muxAssetId) {
        await deleteAsset(mux, session.muxAssetId)
        return
      }
      if (!session.uploadId) return
      try {
        await mux.video.uploads.cancel(session.uploadId)
      } catch (error) {
        if (isNotFound(error)) return
        // Mux cancels only uploads still waiting: this one may have become an asset whose news
        // has not reached us yet, and that asset must go too.
        const upload = await mux.video.uploads.retrieve(session.uploadId).catch((retrieveError: unknown) => {
          if (isNotFound(retrieveError)) return null
          throw retrieveError
        })
        if (!upload) return
        if (upload.asset_id) return deleteAsset(mux, upload.asset_id)
        if (upload.status !== 'waiting') return
        throw error
      }
    },
  }
}

async function deleteAsset(mux: Mux, assetId: string) {
  try {
    await mux.video.assets.delete(assetId)
  } catch (error) {
    // Already gone: what deleting wanted.
    if (!isNotFound(error)) throw error
  }
}

/** The fields of a Mux asset that move a session, from a webhook or from the API. */
const AssetData = z.object({
  id: z.string().min(1),
  status: z.string().optional(),
  passthrough: z.string().nullish(),
  upload_id: z.string().nullish(),
  duration: z.number().nullish(),
  playback_ids: z.array(z.object({ id: z.string().min(1), policy: z.string() })).nullish(),
  errors: z.object({ type: z.string().nullish(), messages: z.array(z.string()).nullish() }).nullish(),
})
type AssetData = z.infer<typeof AssetData>

const UploadData = z.object({ id: z.string().min(1), asset_id: z.string().min(1).nullish() })

function durationMinutes(seconds: number | null | undefined) {
  // A session shorter than half a minute still lasts "1 min", never "0 min".
  return seconds && seconds > 0 ? Math.max(1, Math.round(seconds / 60)) : null
}

/** Publishes the session with the asset's signed playback ID; true only for the call that published. */
async function publishReadyAsset(sessionId: string, asset: AssetData) {
  const playbackId = asset.playback_ids?.find((playback) => playback.policy === 'signed')?.id
  if (!playbackId) {
    // A public playback ID would let anyone with the address watch: never published.
    await markVideoFailed(sessionId, `Mux asset ${asset.id} is ready without a signed playback id`)
    return false
  }
  const published = await publishVideo(sessionId, {
    muxAssetId: asset.id,
    muxPlaybackId: playbackId,
    durationMinutes: durationMinutes(asset.duration),
  })
  if (published) logger.info({ sessionId, assetId: asset.id }, 'ceo session published: Mux video ready')
  return published
}

function assetFailureReason(asset: AssetData) {
  const messages = asset.errors?.messages?.filter(Boolean) ?? []
  return `Mux asset ${asset.id} errored${asset.errors?.type ? ` (${asset.errors.type})` : ''}: ${messages.join('; ') || 'no reason given'}`
}

/**
 * The session an asset belongs to: by its asset id, else by its upload (asset_created may be
 * lost or arrive after ready). The passthrough we gave at upload must name the same session, so
 * an old upload's asset cannot publish a session that has since been given another video.
 */
async function sessionOfAsset(asset: AssetData): Promise<VideoStateRow> {
  const session = (await findSessionByMuxAssetId(asset.id)) ?? (asset.upload_id ? await findSessionByUploadId(asset.upload_id) : null)
  if (!session) return null
  if (session.videoProvider !== 'mux' || (asset.passthrough && asset.passthrough !== session.id)) {
    logger.warn({ sessionId: session.id, assetId: asset.id, passthrough: asset.passthrough }, 'Mux asset does not match its session')
    return null
  }
  if (session.muxAssetId && session.muxAssetId !== asset.id) return null
  return session
}

export type MuxEventOutcome = 'applied' | 'unchanged' | 'unknown-session' | 'ignored' | 'invalid'

/**
 * Applies one verified webhook event. Every state change below is a conditional UPDATE
 * (video-state.server.ts), so a duplicated, late or reordered delivery changes nothing and
 * answers 200 like the first one; only a database failure throws (and Mux delivers again).
 */
export async function handleMuxEvent(event: { type: string; data: unknown }): Promise<MuxEventOutcome> {
  switch (event.type) {
    case 'video.upload.asset_created': {
      const upload = UploadData.safeParse(event.data)
      if (!upload.success || !upload.data.asset_id) return 'invalid'
      const session = await findSessionByUploadId(upload.data.id)
      if (!session || session.videoProvider !== 'mux') return 'unknown-session'
      // A redelivery: markVideoProcessing would accept it, but touching the row would restart
      // the reconciliation's clock (it waits ten minutes from the last change).
      if (session.muxAssetId === upload.data.asset_id && session.uploadStatus !== 'waiting') return 'unchanged'
      return (await markVideoProcessing(session.id, { muxAssetId: upload.data.asset_id })) ? 'applied' : 'unchanged'
    }
    case 'video.asset.ready':
    case 'video.asset.errored': {
      const asset = AssetData.safeParse(event.data)
      if (!asset.success) return 'invalid'
      const session = await sessionOfAsset(asset.data)
      if (!session) return 'unknown-session'
      const changed =
        event.type === 'video.asset.ready'
          ? await publishReadyAsset(session.id, asset.data)
          : await markVideoFailed(session.id, assetFailureReason(asset.data))
      return changed ? 'applied' : 'unchanged'
    }
    default:
      return 'ignored'
  }
}

/** Checks Mux's signature (HMAC of "<t>.<body>", at most 5 minutes old) and reads the event. */
export async function verifyMuxWebhook(body: string, headers: Headers, env: Env = getEnv()) {
  const mux = await muxClient(env)
  await mux.webhooks.verifySignature(body, headers, env.MUX_WEBHOOK_SECRET)
}

const RECONCILE_EVERY_MS = 5 * 60 * 1000
/** A webhook usually arrives within seconds; after this long, Mux is asked directly. */
const RECONCILE_AFTER_MS = 10 * 60 * 1000
const FAILED_UPLOAD_STATUSES = new Set(['errored', 'cancelled', 'timed_out'])

/**
 * Runs at every 5-minute boundary. Keyed by the boundary, so every process schedules the same
 * run and the queue keeps one of them, and runs scheduled by different starts coincide instead
 * of multiplying.
 */
const slotStart = (at: Date) => new Date(Math.floor(at.getTime() / RECONCILE_EVERY_MS) * RECONCILE_EVERY_MS)

export const reconcileMuxJob = defineJob<Record<string, never>>({
  name: 'ceo-sessions.reconcile-mux',
  label: 'Sincronización con Mux',
  // The next run comes in five minutes anyway; a retry would only overlap it.
  retry: () => null,
  async run() {
    if (!getEnv().MUX_TOKEN_ID) return
    // Scheduled first: a failure below must not stop the chain.
    await scheduleMuxReconciliation(new Date(slotStart(new Date()).getTime() + RECONCILE_EVERY_MS))
    await reconcileMuxSessions()
  },
})

/** Start-up (declared in parts.server.ts) and every run: the next reconciliation, only while Mux is configured. */
export async function scheduleMuxReconciliation(at = new Date()) {
  if (!getEnv().MUX_TOKEN_ID) return false
  return enqueue(reconcileMuxJob, {}, { runAt: at, dedupeKey: slotStart(at).toISOString() })
}

/**
 * Asks Mux about sessions that have waited more than 10 minutes for their video: the webhook
 * may have been lost (an outage of ours, a wrong secret for a while). One session's failure is
 * logged and the others go on.
 */
export async function reconcileMuxSessions(now = new Date()) {
  const sessions = await sessionsAwaitingVideo('mux', new Date(now.getTime() - RECONCILE_AFTER_MS))
  if (sessions.length === 0) return { checked: 0, changed: 0, errors: 0 }
  const mux = await muxClient()
  let changed = 0
  let errors = 0
  for (const session of sessions) {
    try {
      if (await reconcileSession(mux, session)) changed++
    } catch (error) {
      errors++
      logger.error({ err: error, sessionId: session.id }, 'Mux reconciliation of a session failed')
    }
  }
  logger.info({ checked: sessions.length, changed, errors }, 'Mux reconciliation done')
  return { checked: sessions.length, changed, errors }
}

async function reconcileSession(mux: Mux, session: NonNullable<VideoStateRow>) {
  let assetId = session.muxAssetId
  let changed = false
  if (!assetId) {
    // No upload yet: the admin's browser never got one, nothing to ask Mux.
    if (!session.uploadId) return false
    const upload = await mux.video.uploads.retrieve(session.uploadId).catch((error: unknown) => {
      if (isNotFound(error)) return null
      throw error
    })
    if (!upload) return markVideoFailed(session.id, `Mux upload ${session.uploadId} not found`)
    if (!upload.asset_id) {
      if (!FAILED_UPLOAD_STATUSES.has(upload.status)) return false
      const detail = upload.error?.message ? `: ${upload.error.message}` : ''
      return markVideoFailed(session.id, `Mux upload ${upload.id} ${upload.status}${detail}`)
    }
    assetId = upload.asset_id
    changed = await markVideoProcessing(session.id, { muxAssetId: assetId })
  }
  const found = await mux.video.assets.retrieve(assetId).catch((error: unknown) => {
    if (isNotFound(error)) return null
    throw error
  })
  if (!found) return markVideoFailed(session.id, `Mux asset ${assetId} not found`)
  const asset = AssetData.parse(found)
  if (asset.status === 'ready') return (await publishReadyAsset(session.id, asset)) || changed
  if (asset.status === 'errored') return markVideoFailed(session.id, assetFailureReason(asset))
  return changed
}
