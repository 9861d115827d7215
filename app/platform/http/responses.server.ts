import { parseWithZod } from '~/ui/parse-with-zod'
import { data } from 'react-router'
import type { z } from 'zod'
import { type CapabilityHolder, can, readOnlyNotice, type Standing } from '~/platform/auth/capabilities'
import { isDatabaseUnavailable } from '~/platform/db/availability.server'
import { logger } from '~/platform/logger.server'
import { type FileLimits, readMultipart, type UploadedFile } from '~/platform/storage/multipart.server'
import type { Failure, Message } from './result'

/**
 * How a request is answered (docs/decisions/0012-one-way-to-write-an-action.md):
 * `success()` returns a result to the form or fetcher, `refuse()` stops a loader or action
 * with a 4xx and a fixed Spanish message (the detail goes only to the log), `handleIntent()`
 * parses an action's intent and runs its one handler.
 */

export function success<T extends object>(payload: T, message?: Message, init?: ResponseInit) {
  return data({ ok: true as const, ...(message ? { message } : {}), ...payload }, init)
}

/** What an action answers when it refuses: a status and a Failure for the form. */
export type Refusal = ReturnType<typeof data<Failure>>

/** A refusal is the member's request being wrong or not allowed; a failure of ours is never one. */
export type RefusalStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 411 | 413 | 415 | 416 | 422 | 429

// The Responses `refuse()` threw, to tell them from the other thrown Responses (redirects).
const refusals = new WeakSet<Response>()

/**
 * Refuses the request: a 4xx with a fixed Spanish message (a JSON Failure). `detail` is written
 * to the log (with the request id), never sent. In a loader the page's error boundary shows the
 * message, a resource route answers it as is, and in an action `handleIntent` hands it to the
 * form that posted.
 */
export function refuse(
  status: RefusalStatus,
  message: string | Message,
  { detail, submission, headers }: { detail?: Record<string, unknown>; submission?: Failure['submission']; headers?: HeadersInit } = {},
): never {
  const failure: Failure = {
    ok: false,
    message: typeof message === 'string' ? { title: message } : message,
    ...(submission ? { submission } : {}),
  }
  logger.info({ status, ...detail }, `Refused: ${failure.message.title}`)
  const response = Response.json(failure, { status, headers: { 'Cache-Control': 'no-store', ...Object.fromEntries(new Headers(headers)) } })
  refusals.add(response)
  throw response
}

function isRefusal(value: unknown): value is Response {
  return value instanceof Response && refusals.has(value)
}

/** How long a member is asked to wait when a dependency is away (Retry-After, in seconds). */
export const RETRY_AFTER_SECONDS = 5

export const UNAVAILABLE: Message = {
  title: 'Servicio no disponible temporalmente',
  description: 'No podemos acceder a los datos ahora mismo. Vuelve a intentarlo en unos segundos.',
}

/**
 * The database is away (a passing failure, not the member's fault nor a bug): a 503 with
 * Retry-After and a fixed Spanish message. A loader's error boundary shows it inside the page's
 * frame; `handleIntent` hands it to the form with its values, like a refusal.
 */
export function unavailable(message: Message = UNAVAILABLE, detail?: Record<string, unknown>): never {
  logger.warn({ ...detail }, `Unavailable: ${message.title}`)
  const response = Response.json({ ok: false, message } satisfies Failure, {
    status: 503,
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' },
  })
  refusals.add(response)
  throw response
}

/** Loaders' guard: the database being away becomes a 503 for the page; anything else stays a bug. */
export function unavailableIfDatabaseAway(error: unknown): never {
  if (isDatabaseUnavailable(error)) unavailable(UNAVAILABLE, { err: error })
  throw error
}

export const REQUEST_MESSAGES = {
  malformed: 'La solicitud está incompleta o mal formada. Vuelve a intentarlo.',
  unsupportedType: 'Este formulario solo acepta los datos que envía la propia página.',
  tooLarge: 'El contenido enviado es demasiado grande.',
  invalid: 'Solicitud no válida',
  failed: 'No se pudo completar la acción. Vuelve a intentarlo en unos minutos.',
} as const

export interface FormInput {
  formData: FormData
  files: UploadedFile[]
}

/**
 * Reads a form post: url-encoded, or multipart streamed through the upload parser with its
 * limits (no files at all unless `files` allows them). Any other body is refused with 415.
 */
export async function readForm(
  request: Request,
  { files, messages = {} }: { files?: FileLimits; messages?: Partial<Record<'too-large' | 'file-too-large' | 'too-many', string>> } = {},
): Promise<FormInput> {
  const contentType = request.headers.get('content-type') ?? ''
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    try {
      return { formData: await request.formData(), files: [] }
    } catch (error) {
      refuse(400, REQUEST_MESSAGES.malformed, { detail: { err: error } })
    }
  }
  if (!/^multipart\/form-data/i.test(contentType)) {
    refuse(415, REQUEST_MESSAGES.unsupportedType, { detail: { contentType } })
  }
  const parsed = await readMultipart(request, files ?? null)
  if (!parsed.ok) {
    if (parsed.reason === 'malformed') refuse(400, REQUEST_MESSAGES.malformed)
    refuse(413, messages[parsed.reason] ?? REQUEST_MESSAGES.tooLarge, { detail: { reason: parsed.reason } })
  }
  const formData = new FormData()
  for (const [name, value] of parsed.fields) formData.append(name, value)
  return { formData, files: parsed.files }
}

type IntentSchema = z.ZodType<{ intent: string }>
type IntentOf<S extends IntentSchema> = z.output<S>['intent']
type Handlers<S extends IntentSchema> = {
  [K in IntentOf<S>]: {
    /** The spec's message when this intent's fields are invalid. */
    invalid: string | Message
    /** The spec's message when it fails on the server (a 500, values kept); by default `invalid`. */
    failed?: string | Message
    run: (input: Extract<z.output<S>, { intent: K }>, files: UploadedFile[]) => unknown
  }
}
type Answer<H> = { [K in keyof H]: H[K] extends { run: (...args: never[]) => infer R } ? Awaited<R> : never }[keyof H]

/**
 * Reads the form (`readForm`), parses its `intent` with a Zod discriminated union and runs that
 * intent's handler. Invalid fields answer 400 with the intent's message and Conform's field
 * errors; an unknown intent answers 400; a refusal (by `readForm` or by the handler) comes back
 * to the form as its result. Anything unexpected is caught here, once: the detail goes to the
 * log with the request id, the form gets a 500 with the intent's fixed message and its values
 * back, and the member keeps the page.
 *
 * A member without `participate` (a suspension running: `guardedAction` marked the request) is
 * refused every intent but those `openWhileSuspended` names, declared beside the action's intent
 * union (decisions/0029): an action that declares none is closed to them.
 */
export async function handleIntent<S extends IntentSchema, H extends Handlers<S>>(
  request: Request,
  schema: S,
  handlers: H,
  formOptions?: Parameters<typeof readForm>[1] & { openWhileSuspended?: readonly IntentOf<S>[] },
): Promise<Answer<H> | Refusal> {
  // What the form gets back with a failure: its values, never its passwords.
  let valuesBack: (() => Failure['submission']) | undefined
  let handler: Handlers<S>[IntentOf<S>] | undefined
  try {
    const { formData, files } = await readForm(request, formOptions)
    const submission = parseWithZod(formData, { schema })
    valuesBack = () => submission.reply({ hideFields: PASSWORD_FIELDS })
    const intent = String(formData.get('intent') ?? '') as IntentOf<S>
    const standing = readOnly.get(request)
    if (standing && !formOptions?.openWhileSuspended?.includes(intent)) refuseReadOnly(standing, { intent })
    handler = Object.hasOwn(handlers, intent) ? handlers[intent] : undefined
    if (!handler) refuse(400, REQUEST_MESSAGES.invalid, { detail: { intent } })
    if (submission.status !== 'success') {
      refuse(400, handler.invalid, {
        submission: submission.reply({ hideFields: PASSWORD_FIELDS }),
        detail: { intent, invalidFields: Object.keys(submission.error ?? {}) },
      })
    }
    return (await handler.run(submission.value as never, files)) as Answer<H>
  } catch (thrown) {
    return answerFailure(request, thrown, handler?.failed ?? handler?.invalid ?? REQUEST_MESSAGES.failed, valuesBack?.())
  }
}

/**
 * What a form gets when its request could not be done: a refusal (4xx) or the database away
 * (503, with Retry-After) as it was thrown, anything unexpected as a 500 with `failed` (the detail
 * in the log). Redirects (a guard's, a handler's) go on as they are. Nothing typed is lost, also
 * without JavaScript: the values come back.
 */
async function answerFailure(
  request: Request,
  thrown: unknown,
  failed: string | Message,
  values?: Failure['submission'],
): Promise<Refusal> {
  if (thrown instanceof Response && !isRefusal(thrown)) throw thrown
  if (isRefusal(thrown)) {
    const failure = (await thrown.json()) as Failure
    failure.submission ??= values
    const headers = new Headers(thrown.headers)
    headers.delete('Content-Type')
    return data(failure, { status: thrown.status, headers }) as Refusal
  }
  const message = typeof failed === 'string' ? { title: failed } : failed
  if (isDatabaseUnavailable(thrown)) {
    // The member is told it is passing and when to try again; the words stay in the form.
    logger.warn({ err: thrown, url: request.url }, 'Request failed: the database is away')
    return data<Failure>(
      {
        ok: false,
        // A guard that could not look the member up names no action: the service is what is away.
        message: {
          title: failed === REQUEST_MESSAGES.failed ? UNAVAILABLE.title : (message.description ?? message.title),
          description: UNAVAILABLE.description,
        },
        submission: values,
      },
      { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS), 'Cache-Control': 'no-store' } },
    ) as Refusal
  }
  logger.error({ err: thrown, url: request.url }, 'Request failed')
  return data<Failure>({ ok: false, message, submission: values }, { status: 500, headers: { 'Cache-Control': 'no-store' } }) as Refusal
}

/**
 * The loader of a part a page fetches into itself (the bell's list, a post's comments, a poll):
 * React Router shows a fetcher's thrown failure in the error boundary of the page that fetched,
 * so a part answers its failures as data instead — a refusal or the database away as they are,
 * anything else a 500 with `failed` — and the part says so in place. Redirects go on.
 */
export function partLoader<Args extends { request: Request }, R>(failed: string, load: (args: Args) => Promise<R>) {
  return async (args: Args): Promise<R | Refusal> => {
    try {
      return await load(args)
    } catch (thrown) {
      return answerFailure(args.request, thrown, failed)
    }
  }
}

/**
 * Something a page can do without (the stats panel, 'Continuar viendo', the categories): when it
 * cannot be loaded the page still shows, with `fallback` in its place (spec: zeros, empty lists),
 * and the log says why.
 */
export async function orWhenFailed<T>(load: Promise<T>, fallback: T, part: string): Promise<T> {
  try {
    return await load
  } catch (error) {
    logger.warn({ err: error, part }, 'A part of the page was not loaded')
    return fallback
  }
}

/**
 * A page's action: its guard first, then its form (`run`, which calls `handleIntent`). A guard that
 * cannot decide — the database away, an unexpected error — or that refuses answers the form the
 * way `handleIntent` does, so the member keeps the page and what they typed instead of an error
 * page; a guard's redirect (to sign in, to complete the profile) goes on as it is. A member the
 * guard let in without `participate` is marked on the request, for `handleIntent` to refuse.
 */
export function guardedAction<User extends CapabilityHolder | void, Args extends { request: Request }, R>(
  guard: (request: Request) => Promise<User>,
  run: (request: Request, user: User, args: Args) => Promise<R>,
) {
  return async (args: Args): Promise<R | Refusal> => {
    let user: User
    try {
      user = await guard(args.request)
    } catch (thrown) {
      if (thrown instanceof Response && !isRefusal(thrown)) throw thrown
      return answerFailure(args.request, thrown, REQUEST_MESSAGES.failed, await valuesOf(args.request))
    }
    if (user && !can(user, 'participate')) readOnly.set(args.request, user.profile!)
    return run(args.request, user, args)
  }
}

/** The requests of members in read-only mode, with their standing (set by `guardedAction`, read by `handleIntent`). */
const readOnly = new WeakMap<Request, Standing>()

/** 403 'Tu cuenta está en modo lectura', with until when and why. */
export function refuseReadOnly(standing: Standing, detail?: Record<string, unknown>): never {
  refuse(403, readOnlyNotice(standing), { detail: { ...detail, suspendedUntil: standing.suspendedUntil?.toISOString() } })
}

/** A plain form's values, to send back with a failure that came before the form was read (never passwords). */
async function valuesOf(request: Request): Promise<Failure['submission']> {
  if (!/^application\/x-www-form-urlencoded/i.test(request.headers.get('content-type') ?? '')) return undefined
  try {
    const values = Object.fromEntries([...(await request.formData())].filter(([name]) => !PASSWORD_FIELDS.includes(name)))
    return { initialValue: values as Record<string, string> }
  } catch {
    return undefined
  }
}

/** Never sent back to the page, even after a failed submission. */
const PASSWORD_FIELDS = ['password', 'confirmPassword', 'currentPassword', 'newPassword']
