import * as feedRoute from '~/features/feed/feed.route'
import * as feedPageRoute from '~/features/feed/page.route'
import { BASE_URL, formRequest, getRequest, run, TEST_IP } from './requests'

const context = { cspNonce: 'test' }

export function feedAction(fields: Record<string, string>, cookie?: string) {
  return run(() => feedRoute.action({ request: formRequest('/comunidad?index', fields, { cookie }), params: {}, context } as any))
}

export function feedLoader(query: string, cookie?: string) {
  return run(() => feedRoute.loader({ request: getRequest(`/comunidad${query}`, { cookie }), params: {}, context } as any))
}

/** The feed's next page, as 'Cargar más' fetches it (`query`: '?cursor=…'). */
export function feedPage(query: string, cookie?: string) {
  return run(() =>
    feedPageRoute.loader({ request: getRequest(`/comunidad/publicaciones${query}`, { cookie }), params: {}, context } as any),
  )
}

/** A multipart post with files, as the Create Post dialog sends it. */
export function createPostWithFiles(
  fields: Record<string, string>,
  files: Array<{ bytes: Uint8Array; name: string; type?: string }>,
  cookie?: string,
) {
  const body = new FormData()
  body.append('intent', 'create-post')
  for (const [key, value] of Object.entries(fields)) body.append(key, value)
  for (const file of files)
    body.append('attachments', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name)
  const headers = new Headers({ Origin: BASE_URL, 'x-app-client-ip': TEST_IP })
  if (cookie) headers.set('Cookie', cookie)
  const request = new Request(`${BASE_URL}/comunidad?index`, { method: 'POST', body, headers })
  return run(() => feedRoute.action({ request, params: {}, context } as any))
}

export async function createPost(cookie: string, fields: Record<string, string> = {}) {
  const outcome = await feedAction({ intent: 'create-post', title: 'Un post', postType: 'text', ...fields }, cookie)
  if (!outcome.data?.ok) throw new Error(`Post not created: ${JSON.stringify(outcome.data)}`)
  return outcome.data.postId as string
}
