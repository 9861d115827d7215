import { createHmac, randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface FakeUpload {
  id: string
  status: 'waiting' | 'asset_created' | 'errored' | 'cancelled' | 'timed_out'
  cors_origin: string
  timeout: number
  url: string
  asset_id?: string
  error?: { type: string; message: string }
  new_asset_settings: { playback_policies?: string[]; passthrough?: string; video_quality?: string }
}

export interface FakeAsset {
  id: string
  status: 'preparing' | 'ready' | 'errored'
  upload_id?: string
  passthrough?: string
  duration?: number
  playback_ids: Array<{ id: string; policy: string }>
  errors?: { type: string; messages: string[] }
  created_at: string
}

export interface FakeMuxRequest {
  method: string
  path: string
  body: any
  authorization: string | undefined
}

/**
 * A local stand-in for the parts of Mux's video API the app calls (direct uploads, assets). The
 * real `@mux/mux-node` SDK is pointed at it (MUX_API_BASE), so the requests our code builds are
 * the ones Mux would get. Tests move uploads and assets along as Mux would.
 */
export async function startFakeMux({ tokenId, tokenSecret }: { tokenId: string; tokenSecret: string }) {
  const requests: FakeMuxRequest[] = []
  const uploads = new Map<string, FakeUpload>()
  const assets = new Map<string, FakeAsset>()
  const expectedAuthorization = `Basic ${Buffer.from(`${tokenId}:${tokenSecret}`).toString('base64')}`

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = ''
      req.on('data', (chunk) => (body += chunk))
      req.on('end', () => resolve(body))
    })

  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://mux.local')
    const text = await readBody(req)
    let body: any = null
    try {
      body = text ? JSON.parse(text) : null
    } catch {
      body = text
    }
    requests.push({ method: req.method!, path: url.pathname, body, authorization: req.headers.authorization })
    const send = (status: number, payload?: unknown) => {
      res.writeHead(status, payload === undefined ? {} : { 'Content-Type': 'application/json' })
      res.end(payload === undefined ? undefined : JSON.stringify(payload))
    }
    // Mux's error shape: { error: { type, messages } }.
    const fail = (status: number, type: string, message: string) => send(status, { error: { type, messages: [message] } })
    if (req.headers.authorization !== expectedAuthorization) return fail(401, 'unauthorized', 'Unauthorized request')

    if (req.method === 'POST' && url.pathname === '/video/v1/uploads') {
      const id = `upload_${randomUUID().replaceAll('-', '')}`
      const upload: FakeUpload = {
        id,
        status: 'waiting',
        cors_origin: body?.cors_origin,
        timeout: body?.timeout ?? 3600,
        url: `https://storage.googleapis.com/video-storage-direct-uploads/${id}?upload_id=fake`,
        new_asset_settings: body?.new_asset_settings ?? {},
      }
      uploads.set(id, upload)
      return send(201, { data: upload })
    }
    const uploadMatch = url.pathname.match(/^\/video\/v1\/uploads\/([^/]+)(\/cancel)?$/)
    if (uploadMatch) {
      const upload = uploads.get(decodeURIComponent(uploadMatch[1]!))
      if (!upload) return fail(404, 'not_found', 'The requested resource either doesn’t exist or you don’t have access to it.')
      if (req.method === 'GET' && !uploadMatch[2]) return send(200, { data: upload })
      if (req.method === 'PUT' && uploadMatch[2]) {
        if (upload.status !== 'waiting') return fail(400, 'invalid_parameters', 'Only waiting uploads can be cancelled')
        upload.status = 'cancelled'
        return send(200, { data: upload })
      }
    }
    const assetMatch = url.pathname.match(/^\/video\/v1\/assets\/([^/]+)$/)
    if (assetMatch) {
      const id = decodeURIComponent(assetMatch[1]!)
      const asset = assets.get(id)
      if (!asset) return fail(404, 'not_found', 'The requested resource either doesn’t exist or you don’t have access to it.')
      if (req.method === 'GET') return send(200, { data: asset })
      if (req.method === 'DELETE') {
        assets.delete(id)
        return send(204)
      }
    }
    fail(404, 'not_found', `No fake for ${req.method} ${url.pathname}`)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    uploads,
    assets,
    /** What Mux does when the browser's last chunk arrives: the upload becomes an asset. */
    createAsset(uploadId: string, { status = 'preparing', duration }: { status?: FakeAsset['status']; duration?: number } = {}) {
      const upload = uploads.get(uploadId)
      if (!upload) throw new Error(`No fake upload ${uploadId}`)
      const id = `asset_${randomUUID().replaceAll('-', '')}`
      const asset: FakeAsset = {
        id,
        status,
        upload_id: uploadId,
        passthrough: upload.new_asset_settings.passthrough,
        duration,
        playback_ids: (upload.new_asset_settings.playback_policies ?? []).map((policy, index) => ({
          id: `play_${id.slice(6, 18)}_${index}`,
          policy,
        })),
        created_at: String(Math.floor(Date.now() / 1000)),
      }
      assets.set(id, asset)
      upload.status = 'asset_created'
      upload.asset_id = id
      return asset
    },
    setAsset(id: string, changes: Partial<FakeAsset>) {
      const asset = assets.get(id)
      if (!asset) throw new Error(`No fake asset ${id}`)
      Object.assign(asset, changes)
      return asset
    },
    setUpload(id: string, changes: Partial<FakeUpload>) {
      const upload = uploads.get(id)
      if (!upload) throw new Error(`No fake upload ${id}`)
      Object.assign(upload, changes)
      return upload
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type FakeMux = Awaited<ReturnType<typeof startFakeMux>>

/** A webhook event in Mux's envelope. */
export function muxEvent(type: string, data: Record<string, unknown>) {
  return {
    type,
    id: randomUUID(),
    object: { type: type.split('.')[1], id: data.id },
    environment: { name: 'Test', id: 'env_test' },
    data,
    created_at: new Date().toISOString(),
    attempts: [],
    accessor_source: null,
    accessor: null,
    request_id: null,
  }
}

/**
 * The `mux-signature` header Mux sends: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.
 * A chosen timestamp makes a stale delivery.
 */
export function signMuxWebhook(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')
  return `t=${timestamp},v1=${signature}`
}
