import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SIGNED_URL_SECONDS, signedUploadUrl, verifyUploadSignature } from './signed-url.server'
import { type FileStorage, getStorage, isValidKey, localStorage, s3Storage } from './storage.server'
import * as uploadsRoute from './uploads.route'

/**
 * A local stand-in for the S3 HTTP API (path-style PUT/GET/DELETE object), enough to run
 * the real AWS SDK against it offline and see what it sends.
 */
function startFakeS3() {
  const objects = new Map<string, { body: Buffer; contentType: string }>()
  const requests: Array<{ method: string; url: string; authorization: string | undefined }> = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      requests.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization })
      const key = decodeURIComponent(new URL(req.url!, 'http://s3').pathname)
      if (req.method === 'PUT') {
        objects.set(key, { body: Buffer.concat(chunks), contentType: String(req.headers['content-type'] ?? '') })
        res.writeHead(200, { ETag: '"etag"' }).end()
      } else if (req.method === 'GET') {
        const object = objects.get(key)
        if (!object) {
          res
            .writeHead(404, { 'Content-Type': 'application/xml' })
            .end(
              '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
            )
          return
        }
        res.writeHead(200, { 'Content-Type': object.contentType, 'Content-Length': object.body.length }).end(object.body)
      } else if (req.method === 'DELETE') {
        objects.delete(key)
        res.writeHead(204).end()
      } else {
        res.writeHead(405).end()
      }
    })
  })
  return { server, objects, requests }
}

async function readAll(stream: ReadableStream<Uint8Array>) {
  return Buffer.from(await new Response(stream).arrayBuffer())
}

/** `outside` is a `..` key that would reach a file stored outside the storage's folder or bucket. */
async function exercise(storage: FileStorage, outside: string) {
  const key = `avatars/${crypto.randomUUID()}/avatar_1.webp`
  await storage.put(key, Buffer.from('RIFF....WEBPdata'), 'image/webp')
  const file = await storage.get(key)
  expect(file).not.toBeNull()
  expect((await readAll(file!.body)).toString()).toBe('RIFF....WEBPdata')
  await storage.delete(key)
  expect(await storage.get(key)).toBeNull()
  expect(await storage.get(outside)).toBeNull()
  expect(await storage.size(outside)).toBeNull()
  await expect(storage.put('../escape.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(/Invalid storage key/)
}

describe('local disk storage', () => {
  test('stores, reads, deletes, and refuses keys that leave its folder', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'storage-'))
    writeFileSync(path.join(parent, 'secret.webp'), 'fuera')
    await exercise(localStorage(path.join(parent, 'uploads')), 'avatars/../../secret.webp')
  })
})

describe('S3 storage through the real SDK', () => {
  let fake: ReturnType<typeof startFakeS3>
  let endpoint: string
  beforeAll(async () => {
    fake = startFakeS3()
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve))
    endpoint = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => (fake.server as Server).close(() => resolve())))

  test('puts, gets and deletes objects in the bucket, signing every request', async () => {
    const storage = s3Storage({
      bucket: 'circulo',
      region: 'eu-west-1',
      endpoint,
      accessKeyId: 'AKIATEST',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    })
    // A server that resolves dots in the path (as this fake does, and a proxy before a bucket may) would answer
    // a `..` key from another bucket.
    fake.objects.set('/other/secret.webp', { body: Buffer.from('fuera'), contentType: 'image/webp' })
    await exercise(storage, 'avatars/../../other/secret.webp')
    fake.objects.delete('/other/secret.webp')
    const put = fake.requests.find((request) => request.method === 'PUT')!
    expect(put.url).toMatch(/^\/circulo\/avatars\/[0-9a-f-]+\/avatar_1\.webp/)
    expect(put.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIATEST\//)
    expect([...fake.objects.values()]).toEqual([])
  })
})

describe('storage keys', () => {
  test.each([
    ['avatars/u1/avatar_1.webp', true],
    ['avatars/u1/.hidden', false],
    ['avatars/../x.webp', false],
    ['/avatars/x.webp', false],
    ['avatars/u1/a b.webp', false],
    ['avatars\\u1\\a.webp', false],
    ['avatars/u1/%2e%2e/a.webp', false],
  ])('%s valid: %s', (key, valid) => {
    expect(isValidKey(key)).toBe(valid)
  })
})

describe('signed links to stored files', () => {
  const serve = async (url: string) => {
    const parsed = new URL(url, 'http://localhost:3000')
    const key = decodeURIComponent(parsed.pathname.slice('/uploads/'.length))
    return uploadsRoute.loader({ request: new Request(parsed), params: { '*': key }, context: {} } as never)
  }

  beforeAll(async () => {
    await getStorage().put('attachments/u1/informe.pdf', Buffer.from('%PDF-1.4 test'), 'application/pdf')
  })

  test('a signed link serves the file under the signed name; a changed name, key or signature is a 404', async () => {
    const url = signedUploadUrl('attachments/u1/informe.pdf', 'informe "anual".pdf')
    const response = await serve(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('informe "anual".pdf')}`)
    expect(await response.text()).toBe('%PDF-1.4 test')

    expect((await serve(url.replace(/name=[^&]+/, 'name=malware.exe'))).status).toBe(404)
    expect((await serve(url.replace(/sig=[^&]+/, 'sig=AAAA'))).status).toBe(404)
    expect((await serve(url.replace('attachments/u1/', 'attachments/u2/'))).status).toBe(404)
    expect((await serve(url.split('?')[0]!)).status).toBe(404)
  })

  test('a link expires after the hour, and one claiming a later expiry is refused', () => {
    const now = Date.now()
    const params = new URL(signedUploadUrl('attachments/u1/informe.pdf', 'a.pdf', now), 'http://x').searchParams
    expect(verifyUploadSignature('attachments/u1/informe.pdf', params, now)).toBe('a.pdf')
    expect(verifyUploadSignature('attachments/u1/informe.pdf', params, now + (SIGNED_URL_SECONDS + 901) * 1000)).toBeNull()
    const future = new URL(signedUploadUrl('attachments/u1/informe.pdf', 'a.pdf', now + 86_400_000), 'http://x').searchParams
    expect(verifyUploadSignature('attachments/u1/informe.pdf', future, now)).toBeNull()
  })
})
