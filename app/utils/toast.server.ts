import { createCookieSessionStorage, redirect } from 'react-router'
import { z } from 'zod'
import { getEnv } from './env.server'

const ToastSchema = z.object({
  type: z.enum(['success', 'error', 'info']).default('success'),
  title: z.string(),
  description: z.string().optional(),
})

export type Toast = z.input<typeof ToastSchema>

const TOAST_KEY = 'toast'

type ToastData = { toast: z.output<typeof ToastSchema> }

let storage: ReturnType<typeof createCookieSessionStorage<ToastData, ToastData>> | undefined

function toastStorage() {
  const env = getEnv()
  storage ??= createCookieSessionStorage<ToastData, ToastData>({
    cookie: {
      name: 'toast',
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: env.APP_URL.startsWith('https://'),
      secrets: [env.AUTH_SECRET],
    },
  })
  return storage
}

/** A toast that survives the redirect: kept in a signed flash cookie until the next page reads it. */
export async function createToastHeaders(toast: Toast, request?: Request) {
  const session = await toastStorage().getSession(request?.headers.get('Cookie'))
  session.flash(TOAST_KEY, ToastSchema.parse(toast))
  return new Headers({ 'Set-Cookie': await toastStorage().commitSession(session) })
}

export async function redirectWithToast(url: string, toast: Toast, init?: ResponseInit) {
  const headers = new Headers(init?.headers)
  const toastHeaders = await createToastHeaders(toast)
  for (const cookie of toastHeaders.getSetCookie()) headers.append('Set-Cookie', cookie)
  return redirect(url, { ...init, headers })
}

export async function getToast(request: Request) {
  const session = await toastStorage().getSession(request.headers.get('Cookie'))
  const parsed = ToastSchema.safeParse(session.get(TOAST_KEY))
  const toast = parsed.success ? parsed.data : null
  const headers = toast ? new Headers({ 'Set-Cookie': await toastStorage().destroySession(session) }) : null
  return { toast, headers }
}
