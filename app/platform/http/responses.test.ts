import { redirect } from 'react-router'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { formRequest, run } from '../../../tests/setup/requests'
import { handleIntent, refuse } from './responses.server'

const Intent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('post'), title: z.string().min(1), password: z.string().optional() }),
  z.object({ intent: z.literal('plain'), title: z.string().min(1) }),
])

function act(fields: Record<string, string>, handler: () => unknown) {
  return run(() =>
    handleIntent(formRequest('/x', fields), Intent, {
      post: { invalid: 'No se pudo crear el post', failed: { title: 'Error', description: 'No se pudo crear el post' }, run: handler },
      plain: { invalid: 'No se pudo procesar tu reacción', run: handler },
    }),
  )
}

describe('handleIntent: one way an action answers', () => {
  test('an unexpected error is caught once: 500, the fixed message, the words typed back (never a password), nothing internal', async () => {
    const outcome = await act({ intent: 'post', title: 'Mi borrador largo', password: 'secreto' }, () => {
      throw new Error('relation "community_posts" does not exist')
    })
    expect(outcome.status).toBe(500)
    expect(outcome.data.message).toEqual({ title: 'Error', description: 'No se pudo crear el post' })
    expect(outcome.data.submission.initialValue).toMatchObject({ intent: 'post', title: 'Mi borrador largo' })
    expect(outcome.data.submission.initialValue.password).toBeUndefined()
    expect(JSON.stringify(outcome.data)).not.toContain('community_posts')
  })

  test('without its own failure message an intent fails with its invalid message', async () => {
    const outcome = await act({ intent: 'plain', title: 'x' }, () => Promise.reject(new TypeError('boom')))
    expect(outcome.status).toBe(500)
    expect(outcome.data.message.title).toBe('No se pudo procesar tu reacción')
  })

  test('a refusal keeps its 4xx and message; a redirect thrown by a handler goes on as a redirect', async () => {
    const refused = await act({ intent: 'post', title: 'x' }, () => refuse(403, 'No se pudo modificar el post'))
    expect(refused.status).toBe(403)
    expect(refused.data.message.title).toBe('No se pudo modificar el post')
    expect(refused.data.submission.initialValue.title).toBe('x')
    const redirected = await act({ intent: 'post', title: 'x' }, () => {
      throw redirect('/auth')
    })
    expect(redirected.status).toBe(302)
    expect(redirected.location).toBe('/auth')
  })
})
