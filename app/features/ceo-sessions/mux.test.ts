import { generateKeyPairSync, verify } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { communityCounters } from '~/features/community/schema'
import { getDb } from '~/platform/db/client.server'
import { type Env, getEnv, parseEnv, setEnv } from '~/platform/env.server'
import { runDueJobs } from '~/platform/jobs/jobs.server'
import { jobs } from '~/platform/jobs/schema'
import { useTestDatabase } from '../../../tests/setup/database'
import { type FakeMux, muxEvent, signMuxWebhook, startFakeMux } from '../../../tests/setup/fake-mux'
import { createConfirmedUser, run } from '../../../tests/setup/requests'
import { muxProvider, scheduleMuxReconciliation } from './mux.server'
import * as webhookRoute from './mux-webhook.route'
import { ceoSessions } from './schema'
import type { VideoProvider } from './video-provider.types'

useTestDatabase()

const TOKEN = { tokenId: 'mux-token-id', tokenSecret: 'mux-token-secret' }
const WEBHOOK_SECRET = 'mux-webhook-secret'
const SIGNING_KEY_ID = 'signing-key-id'
const APP_ORIGIN = 'http://localhost:3000'
const context = { cspNonce: 'test' }

// Mux gives an RSA key in PKCS#1 PEM, base64-encoded once more.
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
})

let fake: FakeMux
let env: Env
let provider: VideoProvider
let creatorId: string

beforeAll(async () => {
  fake = await startFakeMux(TOKEN)
  env = parseEnv({
    NODE_ENV: 'test',
    APP_URL: APP_ORIGIN,
    DATA_DIR: getEnv().DATA_DIR,
    AUTH_SECRET: getEnv().AUTH_SECRET,
    MUX_TOKEN_ID: TOKEN.tokenId,
    MUX_TOKEN_SECRET: TOKEN.tokenSecret,
    MUX_WEBHOOK_SECRET: WEBHOOK_SECRET,
    MUX_SIGNING_KEY_ID: SIGNING_KEY_ID,
    MUX_SIGNING_PRIVATE_KEY: Buffer.from(keys.privateKey).toString('base64'),
    MUX_API_BASE: fake.url,
    LOG_LEVEL: 'silent',
  })
  setEnv(env)
  provider = muxProvider(env)
  creatorId = (await createConfirmedUser()).userId
})
afterAll(() => fake.close())

async function insertSession(values: Partial<typeof ceoSessions.$inferInsert> = {}) {
  const [row] = await getDb()
    .insert(ceoSessions)
    .values({
      title: 'Liderar en tiempos de cambio',
      summary: 'Resumen',
      description: 'Descripción',
      ceoName: 'Marta López',
      ceoPosition: 'CEO',
      ceoCompany: 'Farma Uno',
      sessionDate: new Date('2026-10-01T17:00:00Z'),
      videoProvider: 'mux',
      createdBy: creatorId,
      ...values,
    })
    .returning({ id: ceoSessions.id })
  return row!.id
}

/** A session whose admin has asked Mux for an upload, as the creation form does. */
async function sessionWithUpload() {
  const sessionId = await insertSession()
  const { uploadId } = await provider.createUpload({ sessionId, userId: creatorId, origin: APP_ORIGIN })
  await getDb().update(ceoSessions).set({ uploadId }).where(eq(ceoSessions.id, sessionId))
  return { sessionId, uploadId }
}

const sessionState = async (sessionId: string) =>
  (
    await getDb()
      .select({
        uploadStatus: ceoSessions.uploadStatus,
        publicationStatus: ceoSessions.publicationStatus,
        muxAssetId: ceoSessions.muxAssetId,
        muxPlaybackId: ceoSessions.muxPlaybackId,
        durationMinutes: ceoSessions.durationMinutes,
        failureReason: ceoSessions.failureReason,
        publishedAt: ceoSessions.publishedAt,
      })
      .from(ceoSessions)
      .where(eq(ceoSessions.id, sessionId))
  )[0]!

const publishedSessions = async () =>
  (
    await getDb().select({ value: communityCounters.value }).from(communityCounters).where(eq(communityCounters.name, 'published_sessions'))
  )[0]!.value

function webhook(
  payload: unknown,
  { secret = WEBHOOK_SECRET, timestamp, signature }: { secret?: string; timestamp?: number; signature?: string | null } = {},
) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload)
  const headers = new Headers({ 'Content-Type': 'application/json' })
  const header = signature === undefined ? signMuxWebhook(body, secret, timestamp) : signature
  if (header !== null) headers.set('Mux-Signature', header)
  const request = new Request(`${APP_ORIGIN}/api/webhooks/mux`, { method: 'POST', headers, body })
  return run(() => webhookRoute.action({ request, params: {}, context } as any))
}

const assetCreated = (uploadId: string, assetId: string) =>
  muxEvent('video.upload.asset_created', { id: uploadId, asset_id: assetId, status: 'asset_created', new_asset_settings: {} })

describe('direct uploads', () => {
  test('asks Mux for an upload from the app origin, signed playback only, naming the session', async () => {
    const sessionId = await insertSession()
    const { uploadId, uploadUrl } = await provider.createUpload({ sessionId, userId: creatorId, origin: APP_ORIGIN })
    expect(uploadUrl).toMatch(/^https:\/\/storage\.googleapis\.com\//)
    const call = fake.requests.filter((request) => request.method === 'POST' && request.path === '/video/v1/uploads').at(-1)!
    expect(call.authorization).toBe(`Basic ${Buffer.from(`${TOKEN.tokenId}:${TOKEN.tokenSecret}`).toString('base64')}`)
    expect(call.body).toMatchObject({
      cors_origin: APP_ORIGIN,
      timeout: 3600,
      new_asset_settings: { playback_policies: ['signed'], passthrough: sessionId, video_quality: 'basic' },
    })
    expect(fake.uploads.get(uploadId)?.status).toBe('waiting')
  })
})

describe('the Mux webhook', () => {
  test('refuses a forged signature, a stale one, and a delivery without one, with a short message', async () => {
    const { uploadId } = await sessionWithUpload()
    const event = assetCreated(uploadId, 'asset_forged')
    for (const outcome of [
      await webhook(event, { secret: 'not-the-secret' }),
      await webhook(event, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }),
      await webhook(event, { signature: null }),
      await webhook(event, { signature: 'garbage' }),
    ]) {
      expect(outcome.status).toBe(400)
      expect(outcome.data).toEqual({ error: 'invalid signature' })
    }
    // A signed body that is not an event.
    expect((await webhook('{not json')).status).toBe(400)
    const rows = await getDb().select({ id: ceoSessions.id }).from(ceoSessions).where(eq(ceoSessions.muxAssetId, 'asset_forged'))
    expect(rows).toEqual([])
  })

  test('without Mux configured the endpoint does not exist', async () => {
    setEnv(parseEnv({ NODE_ENV: 'test', DATA_DIR: env.DATA_DIR, AUTH_SECRET: env.AUTH_SECRET, LOG_LEVEL: 'silent' }))
    try {
      expect((await webhook(muxEvent('video.asset.ready', { id: 'asset_x' }))).status).toBe(404)
    } finally {
      setEnv(env)
    }
  })

  test('asset_created, ready and a second ready: processing, then published once with the signed playback id', async () => {
    const { sessionId, uploadId } = await sessionWithUpload()
    const asset = fake.createAsset(uploadId, { duration: 2712.4 })

    const created = assetCreated(uploadId, asset.id)
    expect(await webhook(created)).toMatchObject({ status: 200, data: { received: true } })
    expect(await sessionState(sessionId)).toMatchObject({
      uploadStatus: 'processing',
      publicationStatus: 'processing',
      muxAssetId: asset.id,
    })
    // Mux delivers again (a redelivery carries the same event): nothing moves.
    const before = await getDb().select({ updatedAt: ceoSessions.updatedAt }).from(ceoSessions).where(eq(ceoSessions.id, sessionId))
    expect((await webhook(created)).status).toBe(200)
    expect(await sessionState(sessionId)).toMatchObject({ uploadStatus: 'processing', muxAssetId: asset.id })
    const after = await getDb().select({ updatedAt: ceoSessions.updatedAt }).from(ceoSessions).where(eq(ceoSessions.id, sessionId))
    expect(after).toEqual(before)

    const counter = await publishedSessions()
    const ready = muxEvent('video.asset.ready', { ...fake.setAsset(asset.id, { status: 'ready' }) })
    expect((await webhook(ready)).status).toBe(200)
    const published = await sessionState(sessionId)
    expect(published).toMatchObject({
      uploadStatus: 'ready',
      publicationStatus: 'published',
      muxAssetId: asset.id,
      muxPlaybackId: asset.playback_ids[0]!.id,
      durationMinutes: 45,
    })
    expect(asset.playback_ids[0]!.policy).toBe('signed')
    expect(await publishedSessions()).toBe(counter + 1)

    expect((await webhook(ready)).status).toBe(200)
    expect(await publishedSessions()).toBe(counter + 1)
    expect((await sessionState(sessionId)).publishedAt).toEqual(published.publishedAt)
    // A late asset_created cannot take a published session back to processing.
    expect((await webhook(created)).status).toBe(200)
    expect(await sessionState(sessionId)).toMatchObject({ uploadStatus: 'ready', publicationStatus: 'published' })
  })

  test('ready before asset_created finds the session by its upload', async () => {
    const { sessionId, uploadId } = await sessionWithUpload()
    const asset = fake.createAsset(uploadId, { status: 'ready', duration: 600 })
    expect((await webhook(muxEvent('video.asset.ready', { ...asset }))).status).toBe(200)
    expect(await sessionState(sessionId)).toMatchObject({ publicationStatus: 'published', muxAssetId: asset.id, durationMinutes: 10 })
  })

  test('an asset whose passthrough names another session publishes nothing', async () => {
    const { sessionId, uploadId } = await sessionWithUpload()
    const asset = fake.createAsset(uploadId, { status: 'ready', duration: 600 })
    const other = await insertSession()
    expect((await webhook(muxEvent('video.asset.ready', { ...asset, passthrough: other }))).status).toBe(200)
    expect((await sessionState(sessionId)).publicationStatus).toBe('processing')
    expect((await sessionState(other)).publicationStatus).toBe('processing')
  })

  test('an errored asset fails the session with Mux’s reasons', async () => {
    const { sessionId, uploadId } = await sessionWithUpload()
    const asset = fake.createAsset(uploadId)
    await webhook(assetCreated(uploadId, asset.id))
    const errored = fake.setAsset(asset.id, {
      status: 'errored',
      errors: { type: 'invalid_input', messages: ['The file is not a video', 'No video track'] },
    })
    expect((await webhook(muxEvent('video.asset.errored', { ...errored }))).status).toBe(200)
    const state = await sessionState(sessionId)
    expect(state).toMatchObject({ uploadStatus: 'failed', publicationStatus: 'failed' })
    expect(state.failureReason).toContain('The file is not a video; No video track')
  })

  test('unknown event types and unknown ids answer 200, so Mux stops delivering them', async () => {
    expect(await webhook(muxEvent('video.asset.track.ready', { id: 'track_1' }))).toMatchObject({ status: 200 })
    expect((await webhook(muxEvent('video.asset.ready', { id: 'asset_unknown', playback_ids: [] }))).status).toBe(200)
    expect((await webhook(assetCreated('upload_unknown', 'asset_unknown'))).status).toBe(200)
  })
})

describe('reconciliation with Mux', () => {
  const ageSession = (sessionId: string) =>
    getDb()
      .update(ceoSessions)
      .set({ updatedAt: sql`now() - interval '20 minutes'` })
      .where(eq(ceoSessions.id, sessionId))

  test('publishes a session whose webhooks were missed, fails a cancelled upload, and schedules the next run', async () => {
    const missed = await sessionWithUpload()
    const asset = fake.createAsset(missed.uploadId, { status: 'ready', duration: 1800 })
    const cancelled = await sessionWithUpload()
    fake.setUpload(cancelled.uploadId, { status: 'cancelled' })
    const errored = await sessionWithUpload()
    const erroredAsset = fake.createAsset(errored.uploadId, { status: 'errored' })
    fake.setAsset(erroredAsset.id, { errors: { type: 'invalid_input', messages: ['Unreadable file'] } })
    const recent = await sessionWithUpload()
    fake.setUpload(recent.uploadId, { status: 'cancelled' })
    const stillUploading = await sessionWithUpload()
    for (const { sessionId } of [missed, cancelled, errored, stillUploading]) await ageSession(sessionId)
    const counter = await publishedSessions()

    expect(await scheduleMuxReconciliation()).toBe(true)
    // Another process starting in the same five minutes adds nothing.
    expect(await scheduleMuxReconciliation()).toBe(false)
    expect(await runDueJobs({ names: ['ceo-sessions.reconcile-mux'] })).toBe(1)

    expect(await sessionState(missed.sessionId)).toMatchObject({
      uploadStatus: 'ready',
      publicationStatus: 'published',
      muxAssetId: asset.id,
      muxPlaybackId: asset.playback_ids[0]!.id,
      durationMinutes: 30,
    })
    expect(await publishedSessions()).toBe(counter + 1)
    expect(await sessionState(cancelled.sessionId)).toMatchObject({ uploadStatus: 'failed', publicationStatus: 'failed' })
    expect((await sessionState(cancelled.sessionId)).failureReason).toContain('cancelled')
    expect(await sessionState(errored.sessionId)).toMatchObject({ publicationStatus: 'failed', muxAssetId: erroredAsset.id })
    expect((await sessionState(errored.sessionId)).failureReason).toContain('Unreadable file')
    // Changed less than ten minutes ago: its webhook may still come.
    expect(await sessionState(recent.sessionId)).toMatchObject({ uploadStatus: 'waiting', publicationStatus: 'processing' })
    expect(await sessionState(stillUploading.sessionId)).toMatchObject({ uploadStatus: 'waiting', publicationStatus: 'processing' })

    const queued = await getDb()
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(sql`${jobs.name} = 'ceo-sessions.reconcile-mux' and ${jobs.status} = 'queued'`)
    expect(queued).toHaveLength(1)
    const next = queued[0]!.runAt.getTime()
    expect(next % (5 * 60 * 1000)).toBe(0)
    expect(next - Date.now()).toBeGreaterThan(0)
    expect(next - Date.now()).toBeLessThanOrEqual(5 * 60 * 1000)
  })
})

describe('playback', () => {
  const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))

  function verifiedClaims(token: string) {
    const [header, payload, signature] = token.split('.')
    expect(decode(header!)).toMatchObject({ alg: 'RS256', typ: 'JWT' })
    const valid = verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), keys.publicKey, Buffer.from(signature!, 'base64url'))
    expect(valid).toBe(true)
    return decode(payload!)
  }

  test('nothing to play before the video is ready', async () => {
    expect(await provider.playback({ id: 'x', videoKey: null, videoContentType: null, muxPlaybackId: null })).toBeNull()
  })

  test('an HLS address with a one-hour RS256 token for the playback id, and a signed poster', async () => {
    const playback = (await provider.playback({ id: 'x', videoKey: null, videoContentType: null, muxPlaybackId: 'play_abc123' }))!
    expect(playback.type).toBe('application/x-mpegURL')
    const src = new URL(playback.src)
    expect(`${src.origin}${src.pathname}`).toBe('https://stream.mux.com/play_abc123.m3u8')
    const claims = verifiedClaims(src.searchParams.get('token')!)
    expect(claims).toMatchObject({ sub: 'play_abc123', aud: 'v', kid: SIGNING_KEY_ID })
    const inAnHour = Date.now() / 1000 + 3600
    expect(Math.abs(claims.exp - inAnHour)).toBeLessThan(60)
    expect(Math.abs(playback.expiresAt.getTime() / 1000 - claims.exp)).toBeLessThan(5)

    const poster = new URL(playback.posterUrl!)
    expect(`${poster.origin}${poster.pathname}`).toBe('https://image.mux.com/play_abc123/thumbnail.webp')
    expect(verifiedClaims(poster.searchParams.get('token')!)).toMatchObject({ sub: 'play_abc123', aud: 't' })
  })
})

describe('deleting a video', () => {
  const noVideo = { id: 'x', videoKey: null, videoContentType: null, muxPlaybackId: null }

  test('deletes the asset, and an asset already gone is fine', async () => {
    const { uploadId } = await sessionWithUpload()
    const asset = fake.createAsset(uploadId, { status: 'ready' })
    await provider.deleteVideo({ ...noVideo, uploadId, muxAssetId: asset.id })
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/video/v1/assets/${asset.id}` })
    expect(fake.assets.has(asset.id)).toBe(false)
    await expect(provider.deleteVideo({ ...noVideo, uploadId, muxAssetId: asset.id })).resolves.toBeUndefined()
    expect(fake.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/video/v1/assets/${asset.id}` })
  })

  test('cancels an unfinished upload; an unknown one is fine; one that just became an asset loses its asset', async () => {
    const waiting = await sessionWithUpload()
    await provider.deleteVideo({ ...noVideo, uploadId: waiting.uploadId, muxAssetId: null })
    expect(fake.requests.at(-1)).toMatchObject({ method: 'PUT', path: `/video/v1/uploads/${waiting.uploadId}/cancel` })
    expect(fake.uploads.get(waiting.uploadId)?.status).toBe('cancelled')

    await expect(provider.deleteVideo({ ...noVideo, uploadId: 'upload_gone', muxAssetId: null })).resolves.toBeUndefined()

    const raced = await sessionWithUpload()
    const asset = fake.createAsset(raced.uploadId)
    await provider.deleteVideo({ ...noVideo, uploadId: raced.uploadId, muxAssetId: null })
    expect(fake.assets.has(asset.id)).toBe(false)
  })

  test('other errors from Mux are thrown', async () => {
    const broken = muxProvider({ ...env, MUX_TOKEN_SECRET: 'wrong-secret' })
    await expect(broken.deleteVideo({ ...noVideo, uploadId: null, muxAssetId: 'asset_any' })).rejects.toMatchObject({ status: 401 })
  })
})
