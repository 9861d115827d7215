import { and, desc, eq, notInArray, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { CurrentUser } from '~/features/account/guards.server'
import { describeUserAgent } from '~/features/account/security.server'
import { getDb } from '~/platform/db/client.server'
import { getEnv } from '~/platform/env.server'
import { handleIntent, refuse, success } from '~/platform/http/responses.server'
import { redirectWithToast } from '~/platform/http/toast.server'
import { pushSubscriptions } from './schema'

/** What the subscribe endpoint and the devices' form answer (asserted in push.test.ts). */
export const PUSH_MESSAGES = {
  notOffered: 'Las notificaciones push no están disponibles en este servidor.',
  wrongType: 'Envía la suscripción del navegador como JSON.',
  tooLarge: 'La suscripción enviada es demasiado grande.',
  malformed: 'La suscripción del navegador no es válida. Vuelve a activarlas.',
  subscribed: 'Notificaciones activadas en este dispositivo',
  disabled: 'Notificaciones desactivadas en ese dispositivo',
  unknownDevice: 'Ese dispositivo ya no recibe notificaciones',
} as const

/** A PushSubscription's JSON is about 500 bytes; a body past this is not one. */
export const MAX_SUBSCRIPTION_BYTES = 4096
/** Each member's devices: a new one past this replaces the oldest. */
export const MAX_DEVICES = 10

/**
 * The push services browsers use (Chrome and Edge on Android and desktop: FCM; Firefox: Mozilla's;
 * Safari on iPhone and Mac: Apple's; Edge on Windows: WNS). The server sends to the endpoint a
 * member gives: any other host (an address inside the network) is refused.
 */
const PUSH_SERVICE_HOSTS = [
  /^fcm\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/,
  /\.push\.apple\.com$/,
  /\.notify\.windows\.com$/,
]

const base64url = (bytes: number) =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/)
    .refine((value) => Buffer.from(value, 'base64url').length === bytes)

/** What `PushSubscription.toJSON()` gives, checked strictly. */
export const SubscriptionSchema = z.object({
  endpoint: z
    .string()
    .max(1024)
    .refine((value) => {
      try {
        const url = new URL(value)
        return url.protocol === 'https:' && !url.username && !url.password && PUSH_SERVICE_HOSTS.some((host) => host.test(url.hostname))
      } catch {
        return false
      }
    }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    // An uncompressed P-256 point (65 bytes, starting 0x04) and a 16-byte secret (RFC 8291).
    p256dh: base64url(65).refine((value) => Buffer.from(value, 'base64url')[0] === 4),
    auth: base64url(16),
  }),
})

/**
 * POST /notificaciones/push: the browser's PushSubscription as JSON (the card's script sends
 * it after the member tapped and allowed). The one action that reads JSON rather than a form
 * (decisions/0035): the body is the browser's object, with no field a member types.
 */
export async function subscribeAction(request: Request, user: CurrentUser) {
  const vapid = getEnv().vapid
  if (!vapid) refuse(409, PUSH_MESSAGES.notOffered)
  const contentType = request.headers.get('content-type') ?? ''
  if (!/^application\/json\s*(;|$)/i.test(contentType)) refuse(415, PUSH_MESSAGES.wrongType, { detail: { contentType } })
  const body = await readCapped(request, MAX_SUBSCRIPTION_BYTES)
  if (body === null) refuse(413, PUSH_MESSAGES.tooLarge)
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch {
    refuse(400, PUSH_MESSAGES.malformed, { detail: { reason: 'not JSON' } })
  }
  const parsed = SubscriptionSchema.safeParse(json)
  if (!parsed.success)
    refuse(400, PUSH_MESSAGES.malformed, { detail: { issues: parsed.error.issues.map((issue) => issue.path.join('.')) } })
  const { endpoint, keys } = parsed.data
  const deviceLabel = describeUserAgent(request.headers.get('user-agent'))
  const device = await saveSubscription(user.id, { endpoint, p256dh: keys.p256dh, auth: keys.auth, deviceLabel })
  return success({ device }, { title: PUSH_MESSAGES.subscribed })
}

/** The body as text, or null past `limit` bytes (read no further than that). */
async function readCapped(request: Request, limit: number) {
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > limit) return null
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>
    try {
      step = await reader.read()
    } catch (error) {
      refuse(400, PUSH_MESSAGES.malformed, { detail: { err: error } })
    }
    if (step.done) break
    size += step.value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => undefined)
      return null
    }
    chunks.push(step.value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * One row per endpoint: a browser subscribing again (another member signed in on it, new keys)
 * takes the row over, with a clean record. The member's devices past MAX_DEVICES go, oldest first.
 */
export async function saveSubscription(
  userId: string,
  subscription: { endpoint: string; p256dh: string; auth: string; deviceLabel: string },
) {
  return getDb().transaction(async (tx) => {
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ userId, ...subscription })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          userId,
          p256dh: subscription.p256dh,
          auth: subscription.auth,
          deviceLabel: subscription.deviceLabel,
          createdAt: sql`now()`,
          lastSuccessAt: null,
          failingSince: null,
          failures: 0,
        },
      })
      .returning({ id: pushSubscriptions.id, deviceLabel: pushSubscriptions.deviceLabel })
    const kept = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.createdAt))
      .limit(MAX_DEVICES)
    await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, kept)))
    return row!
  })
}

/** The member's devices with push on, newest first, for /perfil. */
export const listDevices = (userId: string) => devicesQuery(userId)

export function devicesQuery(userId: string) {
  return getDb()
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      deviceLabel: pushSubscriptions.deviceLabel,
      createdAt: pushSubscriptions.createdAt,
      lastSuccessAt: pushSubscriptions.lastSuccessAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.createdAt))
    .limit(MAX_DEVICES)
}

const DevicesIntent = z.discriminatedUnion('intent', [z.object({ intent: z.literal('disable'), subscriptionId: z.uuid() })])

/** Turning push off is no participation: open in read-only mode (decisions/0029). */
const OPEN_WHILE_SUSPENDED = ['disable'] as const satisfies ReadonlyArray<z.output<typeof DevicesIntent>['intent']>

/** POST /notificaciones/push/dispositivos: 'Desactivar' one of the member's devices. */
export function devicesAction(request: Request, user: CurrentUser) {
  return handleIntent(
    request,
    DevicesIntent,
    {
      disable: {
        invalid: PUSH_MESSAGES.unknownDevice,
        async run({ subscriptionId }) {
          // Only the member's own rows match: another member's ids are not found.
          const removed = await getDb()
            .delete(pushSubscriptions)
            .where(and(eq(pushSubscriptions.id, subscriptionId), eq(pushSubscriptions.userId, user.id)))
            .returning({ id: pushSubscriptions.id })
          if (removed.length === 0) refuse(404, PUSH_MESSAGES.unknownDevice)
          return redirectWithToast('/perfil#notificaciones', { type: 'success', title: PUSH_MESSAGES.disabled })
        },
      },
    },
    { openWhileSuspended: OPEN_WHILE_SUSPENDED },
  )
}
