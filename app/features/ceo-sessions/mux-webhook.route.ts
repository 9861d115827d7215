import { z } from 'zod'
import { getEnv } from '~/platform/env.server'
import { logger } from '~/platform/logger.server'
import { webhookEvents } from '~/platform/metrics/metrics.server'
import { handleMuxEvent, verifyMuxWebhook } from './mux.server'
import type { Route } from './+types/mux-webhook.route'

const MuxEvent = z.object({ type: z.string().min(1), id: z.string().optional(), data: z.unknown() })

/**
 * Mux's news about uploads and assets. The signature is checked on the raw body before anything
 * is read from it. Events about sessions we do not know, and kinds we do not use, answer 200 so
 * Mux stops delivering them; only a failure on our side answers 5xx, and Mux delivers again.
 * Duplicates are harmless: every state change is conditional (video-state.server.ts).
 */
export async function action({ request }: Route.ActionArgs) {
  const env = getEnv()
  if (!env.MUX_TOKEN_ID || !env.MUX_WEBHOOK_SECRET) return new Response('Not found', { status: 404 })
  const body = await request.text()
  try {
    if (!request.headers.get('mux-signature')) throw new Error('missing mux-signature header')
    await verifyMuxWebhook(body, request.headers, env)
  } catch (error) {
    logger.warn({ err: error }, 'Mux webhook refused: bad signature')
    webhookEvents.inc({ provider: 'mux', outcome: 'rejected' })
    return Response.json({ error: 'invalid signature' }, { status: 400 })
  }

  let event: z.infer<typeof MuxEvent>
  try {
    event = MuxEvent.parse(JSON.parse(body))
  } catch (error) {
    logger.warn({ err: error }, 'Mux webhook refused: not an event')
    webhookEvents.inc({ provider: 'mux', outcome: 'rejected' })
    return Response.json({ error: 'invalid payload' }, { status: 400 })
  }

  try {
    const outcome = await handleMuxEvent(event)
    if (outcome === 'invalid') {
      logger.warn({ eventId: event.id, type: event.type }, 'Mux webhook refused: event without the fields it needs')
      webhookEvents.inc({ provider: 'mux', outcome: 'rejected' })
      return Response.json({ error: 'invalid payload' }, { status: 400 })
    }
    logger.info({ eventId: event.id, type: event.type, outcome }, 'Mux event processed')
    // Mux's duplicates change nothing (every state change is conditional): counted as processed.
    webhookEvents.inc({ provider: 'mux', outcome: 'processed' })
    return Response.json({ received: true })
  } catch (error) {
    logger.error({ err: error, eventId: event.id, type: event.type }, 'Mux event failed; Mux will retry')
    webhookEvents.inc({ provider: 'mux', outcome: 'failed' })
    return Response.json({ error: 'processing failed' }, { status: 500 })
  }
}

export async function loader() {
  return new Response('Method Not Allowed', { status: 405, headers: { Allow: 'POST' } })
}
