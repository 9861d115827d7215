import { describe, expect, test } from 'vitest'
import { toCommentView } from './comments.server'

// The view rules every commentable shares; feed.test.ts and ceo-sessions.test.ts test the rest
// through each feature's action.
describe('the comment view', () => {
  const written = new Date('2026-11-20T10:00:00.000Z')
  const row = {
    id: 'c1',
    userId: 'author',
    content: 'Hola',
    parentCommentId: null,
    likeCount: 2,
    likedByMe: true,
    createdAt: written,
    updatedAt: written,
    firstName: 'Ana',
    lastName: 'García',
    displayName: null,
    avatarUrl: null,
  }
  const member = { id: 'other', roles: ['user' as const] }

  test('a comment is "edited" only when changed more than a second after it was written', () => {
    const at = (ms: number) => toCommentView({ ...row, updatedAt: new Date(written.getTime() + ms) }, member).edited
    expect([at(0), at(1000), at(1001)]).toEqual([false, false, true])
  })

  test('the author edits; the author, a moderator or an admin deletes; another member does neither', () => {
    const rights = (viewer: { id: string; roles: Array<'user' | 'moderator' | 'admin'> }) => {
      const view = toCommentView(row, viewer)
      return { canEdit: view.canEdit, canDelete: view.canDelete }
    }
    expect(rights({ id: 'author', roles: ['user'] })).toEqual({ canEdit: true, canDelete: true })
    expect(rights({ id: 'mod', roles: ['moderator'] })).toEqual({ canEdit: false, canDelete: true })
    expect(rights({ id: 'admin', roles: ['admin'] })).toEqual({ canEdit: false, canDelete: true })
    expect(rights(member)).toEqual({ canEdit: false, canDelete: false })
  })

  test('the author is shown by the display-name rule, with dates as ISO strings', () => {
    expect(toCommentView(row, member)).toMatchObject({
      author: { userId: 'author', name: 'Ana García', avatarUrl: null },
      createdAt: '2026-11-20T10:00:00.000Z',
      likeCount: 2,
      likedByMe: true,
    })
    expect(toCommentView({ ...row, firstName: null, lastName: null }, member).author.name).toBe('Usuario')
  })
})
