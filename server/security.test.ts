import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { request as httpRequest } from 'node:http'
import { CLIENT_IP_HEADER } from '~/platform/http/client-ip'
import {
  allowedMethods,
  bodySizeLimit,
  sameOriginWrites,
  securityHeaders,
  TOKEN_AUTHENTICATED_PATHS,
  trustedClientIp,
  trustProxySetting,
} from './security'

let baseUrl: string
let close: () => void

beforeAll(async () => {
  const app = express()
  app.use(securityHeaders({ development: false, https: false }))
  app.use(allowedMethods())
  app.use(sameOriginWrites({ appOrigin: 'https://circulo.example', exemptPrefixes: TOKEN_AUTHENTICATED_PATHS }))
  app.use(bodySizeLimit({ maxBytes: 1024 }))
  app.all('/{*path}', (_req, res) => res.type('text/plain').send(`ok ${res.locals.cspNonce}`))
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => server.close()
})
afterAll(() => close())

/** One GET of `/` from `app`, listening on a throwaway port of 127.0.0.1. */
async function fetchOnce(app: express.Express, headers: Record<string, string> = {}) {
  const server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  try {
    return await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers })
  } finally {
    server.close()
  }
}

describe('security headers', () => {
  test('a strict CSP with a fresh nonce per request, and the other headers', async () => {
    const [first, second] = await Promise.all([fetch(`${baseUrl}/`), fetch(`${baseUrl}/`)])
    const csp = first.headers.get('content-security-policy')!
    const nonce = (await first.text()).slice(3)
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}'`)
    expect(csp).not.toContain("unsafe-inline'; script")
    for (const directive of [
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self' https://checkout.stripe.com https://billing.stripe.com",
    ]) {
      expect(csp).toContain(directive)
    }
    expect(second.headers.get('content-security-policy')).not.toContain(nonce)
    expect(first.headers.get('x-content-type-options')).toBe('nosniff')
    expect(first.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    expect(first.headers.get('x-frame-options')).toBe('DENY')
    expect(first.headers.get('strict-transport-security')).toBeNull()
  })

  test('the embed origins given (the podcast) and no others may be framed', async () => {
    const app = express()
    app.use(securityHeaders({ development: false, https: false, frameSources: ['https://open.spotify.com'] }))
    app.get('/', (_req, res) => res.send('ok'))
    const response = await fetchOnce(app)
    expect(response.headers.get('content-security-policy')).toContain("frame-src 'self' https://open.spotify.com;")
  })

  test('HSTS only on https deployments', async () => {
    const app = express()
    app.use(securityHeaders({ development: false, https: true }))
    app.get('/', (_req, res) => res.send('ok'))
    const response = await fetchOnce(app)
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/)
  })
})

describe('same-origin writes', () => {
  const post = (path: string, headers: Record<string, string>) => fetch(`${baseUrl}${path}`, { method: 'POST', headers })

  test('refuses a cross-site form post', async () => {
    const response = await post('/auth', { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' })
    expect(response.status).toBe(403)
    expect(await response.text()).toBe('Solicitud rechazada: origen no permitido')
  })

  test('refuses a foreign Origin even without fetch metadata', async () => {
    expect((await post('/logout', { Origin: 'https://evil.example' })).status).toBe(403)
  })

  test('refuses a same-site (other subdomain) request', async () => {
    expect((await post('/logout', { Origin: 'https://circulo.example', 'Sec-Fetch-Site': 'same-site' })).status).toBe(403)
  })

  test('accepts our own origin; a write that says nowhere where it comes from is refused', async () => {
    expect((await post('/auth', { Origin: 'https://circulo.example', 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200)
    expect((await post('/auth', { 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200)
    expect((await post('/auth', { Referer: 'https://circulo.example/auth' })).status).toBe(200)
    const bare = await post('/auth', {})
    expect(bare.status).toBe(403)
    expect(await bare.text()).toBe('Solicitud rechazada: origen no permitido')
    expect((await post('/auth', { Referer: 'https://evil.example/page' })).status).toBe(403)
    expect((await post('/auth', { Referer: 'no es una url' })).status).toBe(403)
  })

  test('a mail client’s one-click unsubscribe (RFC 8058: no Origin, no cookie) passes: /correo/baja/ is exempt from the origin check, nothing else near it is', async () => {
    const oneClick = await fetch(`${baseUrl}/correo/baja/token.firma`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    })
    expect(oneClick.status).toBe(200)
    expect((await post('/correo/otra-cosa', {})).status).toBe(403)
  })

  test('signed webhooks are exempt; reads are never blocked', async () => {
    expect((await post('/api/webhooks/stripe', { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(200)
    const read = await fetch(`${baseUrl}/`, { headers: { 'Sec-Fetch-Site': 'cross-site' } })
    expect(read.status).toBe(200)
  })
})

describe('request body size', () => {
  test('a form post over the limit is refused with 413 before anything reads it', async () => {
    const response = await fetch(`${baseUrl}/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://circulo.example' },
      body: `email=${'a'.repeat(2048)}`,
    })
    expect(response.status).toBe(413)
    expect(await response.text()).toBe('Solicitud rechazada: el contenido es demasiado grande')
  })

  test('a body of unknown length (chunked) that is not an upload is refused with 411', async () => {
    const url = new URL(`${baseUrl}/auth`)
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', Origin: 'https://circulo.example' },
        },
        (response) => {
          response.resume()
          resolve(response.statusCode ?? 0)
        },
      )
      request.on('error', reject)
      request.write('{"a":')
      request.end('1}')
    })
    expect(status).toBe(411)
  })

  test('small posts and uploads (limited by their own parser) pass', async () => {
    const headers = { Origin: 'https://circulo.example' }
    expect((await fetch(`${baseUrl}/auth`, { method: 'POST', headers, body: new URLSearchParams({ email: 'a@b.es' }) })).status).toBe(200)
    const upload = new FormData()
    upload.set('file', new Blob(['x'.repeat(4096)]), 'big.txt')
    expect((await fetch(`${baseUrl}/perfil`, { method: 'POST', headers, body: upload })).status).toBe(200)
  })
})

describe('methods', () => {
  const send = (method: string) =>
    new Promise<{ status: number; allow?: string; body: string }>((resolve, reject) => {
      const url = new URL(baseUrl)
      const request = httpRequest({ host: url.hostname, port: url.port, path: '/auth', method }, (response) => {
        let body = ''
        response.on('data', (chunk) => (body += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body }))
      })
      request.on('error', reject)
      request.end()
    })

  test.each(['TRACE', 'DELETE', 'PATCH', 'PROPFIND'])('%s answers 405 with a Spanish message and Allow', async (method) => {
    const response = await send(method)
    expect(response.status).toBe(405)
    expect(response.allow).toBe('GET, HEAD, POST, PUT, OPTIONS')
    expect(response.body).toBe('Método no permitido')
  })

  test('OPTIONS answers 204 with Allow; GET and HEAD pass', async () => {
    expect(await send('OPTIONS')).toMatchObject({ status: 204, allow: 'GET, HEAD, POST, PUT, OPTIONS' })
    expect((await send('GET')).status).toBe(200)
    expect((await send('HEAD')).status).toBe(200)
  })
})

describe('stored files', () => {
  test('/uploads/ answers carry only the headers of the uploads route (no second CSP or nosniff)', async () => {
    const response = await fetch(`${baseUrl}/uploads/avatars/x/a.webp`)
    expect(response.headers.get('content-security-policy')).toBeNull()
    expect(response.headers.get('x-content-type-options')).toBeNull()
  })
})

describe('TRUST_PROXY', () => {
  test.each([
    ['1', 1],
    ['2', 2],
    ['true', true],
    ['false', false],
    ['loopback', 'loopback'],
    ['10.0.0.0/8, 192.168.1.1', '10.0.0.0/8, 192.168.1.1'],
  ] as const)('%j → %j', (value, expected) => {
    expect(trustProxySetting(value)).toEqual(expected)
  })

  test('one trusted hop: the client address comes from X-Forwarded-For', async () => {
    const app = express()
    app.set('trust proxy', trustProxySetting('1'))
    app.get('/', (req, res) => res.send(req.ip))
    expect(await (await fetchOnce(app, { 'X-Forwarded-For': '198.51.100.4' })).text()).toBe('198.51.100.4')
  })
})

describe('client address', () => {
  // What rate limits, sessions and the localhost-only test checkout read as the client's address.
  const addressSeenBehind = async (trustProxy: string | undefined, headers: Record<string, string>) => {
    const app = express()
    if (trustProxy) app.set('trust proxy', trustProxySetting(trustProxy))
    app.use(trustedClientIp())
    app.get('/', (req, res) => res.send(req.headers[CLIENT_IP_HEADER]))
    return (await fetchOnce(app, headers)).text()
  }

  test(`a client cannot choose it by sending ${CLIENT_IP_HEADER}: it is the socket's address`, async () => {
    expect(await addressSeenBehind(undefined, { [CLIENT_IP_HEADER]: '198.51.100.9' })).toBe('127.0.0.1')
  })

  test(`behind TRUST_PROXY it is the address the proxy reports, whatever ${CLIENT_IP_HEADER} says`, async () => {
    expect(await addressSeenBehind('1', { [CLIENT_IP_HEADER]: '127.0.0.1', 'X-Forwarded-For': '198.51.100.4' })).toBe('198.51.100.4')
  })
})
