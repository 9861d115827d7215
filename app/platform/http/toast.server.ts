import { createCookieSessionStorage, redirect } from 'react-router'
import { z } from 'zod'
import { getEnv } from '~/platform/env.server'

/**
 * A toast that survives a redirect: kept in a signed flash cookie until the root loader of
 * the next page reads it (docs/decisions/0012). Fetchers get theirs in the action's result.
 */
const ToastSchema = z.object({
  type: z.enum(['success', 'error', 'info']).default('success'),
  title: z.string(),
  description: z.string().optional(),
})

export type Toast = z.input<typeof ToastSchema>

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

export async function redirectWithToast(url: string, toast: Toast, init?: ResponseInit) {
  const session = await toastStorage().getSession()
  session.flash('toast', ToastSchema.parse(toast))
  const headers = new Headers(init?.headers)
  headers.append('Set-Cookie', await toastStorage().commitSession(session))
  return redirect(url, { ...init, headers })
}

/** Only requests that carry the cookie pay for reading it. */
export async function getToast(request: Request) {
  const cookie = request.headers.get('Cookie')
  if (!cookie?.includes('toast=')) return { toast: null, headers: null }
  const session = await toastStorage().getSession(cookie)
  const parsed = ToastSchema.safeParse(session.get('toast'))
  const toast = parsed.success ? parsed.data : null
  const headers = toast ? new Headers({ 'Set-Cookie': await toastStorage().destroySession(session) }) : null
  return { toast, headers }
}
