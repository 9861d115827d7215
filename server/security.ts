import { randomBytes } from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import { CLIENT_IP_HEADER } from '~/platform/http/client-ip'

/**
 * Security headers for every response, and a fresh nonce for the page's inline
 * scripts (React Router's hydration data) so the CSP can forbid all others.
 */
export function securityHeaders({
  development,
  https,
  frameSources = [],
  connectSources = [],
}: {
  development: boolean
  https: boolean
  /** Origins whose players the pages may embed (the podcast, from the landing content). */
  frameSources?: string[]
  /** Origins the browser talks to besides the app (Mux's upload and streaming hosts, when configured). */
  connectSources?: string[]
}) {
  return function securityHeaders(req: Request, res: Response, next: NextFunction) {
    // Stored files carry their own, stricter headers (platform/storage/uploads.route.ts).
    if (req.path.startsWith('/uploads/')) return next()
    const nonce = randomBytes(16).toString('base64')
    res.locals.cspNonce = nonce
    const scriptSrc = development ? `'self' 'unsafe-inline'` : `'self' 'nonce-${nonce}'`
    const directives = [
      `default-src 'self'`,
      `script-src ${scriptSrc}`,
      // Radix and sonner position elements with inline styles.
      `style-src 'self' 'unsafe-inline'`,
      `img-src 'self' data: blob: https:`,
      `font-src 'self'`,
      `connect-src ${["'self'", ...connectSources, ...(development ? ['ws:', 'wss:'] : [])].join(' ')}`,
      `media-src 'self' blob: https:`,
      `frame-src ${["'self'", ...frameSources].join(' ')}`,
      `object-src 'none'`,
      `base-uri 'none'`,
      // A form post may end on Stripe's hosted checkout or billing portal.
      `form-action 'self' https://checkout.stripe.com https://billing.stripe.com`,
      `frame-ancestors 'none'`,
      ...(https ? ['upgrade-insecure-requests'] : []),
    ]
    res.setHeader('Content-Security-Policy', directives.join('; '))
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin')
    res.setHeader('X-Frame-Options', 'DENY')
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
    res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()')
    if (https) res.setHeader('Strict-Transport-Security', 'max-age=63072000; includeSubDomains')
    next()
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Writes that other servers make, each carrying its own proof instead of a browser's provenance:
 * signed webhooks, and a mail client's one-click unsubscribe (RFC 8058), whose link is signed.
 */
export const TOKEN_AUTHENTICATED_PATHS = ['/api/webhooks/', '/correo/baja/']

/**
 * Refuses state-changing requests sent by other sites. Browsers send Sec-Fetch-Site
 * (and Origin) on every form post and fetch; a request from our own pages says
 * same-origin. Paths that are called by other servers (signed webhooks) are exempt.
 */
export function sameOriginWrites({ appOrigin, exemptPrefixes }: { appOrigin: string; exemptPrefixes: string[] }) {
  return function sameOriginWrites(req: Request, res: Response, next: NextFunction) {
    if (SAFE_METHODS.has(req.method) || exemptPrefixes.some((prefix) => req.path.startsWith(prefix))) return next()
    const fetchSite = req.get('sec-fetch-site')
    const origin = req.get('origin') ?? originOf(req.get('referer'))
    const requestOrigin = `${req.protocol}://${req.get('host')}`
    // Every browser we serve sends Origin (or at least Sec-Fetch-Site) with a form post or a
    // fetch: a write that says where it comes from in neither is not one of our pages.
    const knownProvenance = Boolean(origin || fetchSite)
    const allowedOrigin = !origin || origin === appOrigin || origin === requestOrigin
    const allowedSite = !fetchSite || fetchSite === 'same-origin' || fetchSite === 'none'
    if (knownProvenance && allowedOrigin && allowedSite) return next()
    res.status(403).type('text/plain; charset=utf-8').send('Solicitud rechazada: origen no permitido')
  }
}

function originOf(referer: string | undefined) {
  if (!referer) return undefined
  try {
    return new URL(referer).origin
  } catch {
    return 'null'
  }
}

/** The methods the site answers; anything else (TRACE, CONNECT, DELETE…) is a 405. */
const ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'OPTIONS']

export function allowedMethods() {
  return function allowedMethods(req: Request, res: Response, next: NextFunction) {
    if (req.method !== 'OPTIONS' && ALLOWED_METHODS.includes(req.method)) return next()
    res.setHeader('Allow', ALLOWED_METHODS.join(', '))
    if (req.method === 'OPTIONS') res.status(204).end()
    else res.status(405).type('text/plain; charset=utf-8').send('Método no permitido')
  }
}

/** Content types whose bodies are streamed through the upload parser, which limits them itself. */
const STREAMED_BODY = /^multipart\/form-data/i
/** Video chunks are streamed to disk by their route, which limits each one itself (ceo-sessions). */
const STREAMED_PATH = '/comunidad/sesiones/subidas/'

/**
 * Caps every other request body (form posts, JSON, webhooks) before anything reads it, so
 * one large POST cannot fill the memory of `request.formData()`. Browsers and Stripe send
 * Content-Length; a body of unknown length that is not an upload is refused.
 */
export function bodySizeLimit({ maxBytes }: { maxBytes: number }) {
  return function bodySizeLimit(req: Request, res: Response, next: NextFunction) {
    if (SAFE_METHODS.has(req.method) || STREAMED_BODY.test(req.get('content-type') ?? '') || req.path.startsWith(STREAMED_PATH)) {
      return next()
    }
    const declared = req.get('content-length')
    if (declared === undefined) {
      if (req.get('transfer-encoding') === undefined) return next()
      res.status(411).type('text/plain; charset=utf-8').send('Solicitud rechazada: falta la longitud del contenido')
      return
    }
    if (Number(declared) > maxBytes) {
      res.status(413).type('text/plain; charset=utf-8').send('Solicitud rechazada: el contenido es demasiado grande')
      return
    }
    next()
  }
}

/**
 * One trustworthy client address for rate limits, sessions and the localhost-only test checkout:
 * the socket's, or what the trusted proxy reports (`trust proxy`, from TRUST_PROXY). Whatever
 * the client sent under that header is overwritten, so it cannot choose its own address.
 */
export function trustedClientIp() {
  return function trustedClientIp(req: Request, _res: Response, next: NextFunction) {
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? 'unknown'
    next()
  }
}

/**
 * Express's `trust proxy` from the TRUST_PROXY text: a number is a count of hops (as a string,
 * Express would read '1' as the address 0.0.0.1 and trust nobody), 'true'/'false' are
 * booleans, anything else (addresses, subnets, 'loopback') passes through.
 */
export function trustProxySetting(value: string): number | boolean | string {
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed)
  if (trimmed === 'true') return true
  if (trimmed === 'false') return false
  return trimmed
}
