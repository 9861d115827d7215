import { describe, expect, test } from 'vitest'
import { groupNotifications, joinNames, linkOf, type NotificationView } from './grouping'

const POST = '11111111-1111-4111-8111-111111111111'
let serial = 0
function notification(type: string, actor: string, extra: Partial<NotificationView> = {}): NotificationView {
  serial++
  return {
    id: `n${serial}`,
    type,
    title: 'Nuevo comentario',
    message: `${actor} ha comentado en tu post «Hola»`,
    isRead: false,
    relatedPostId: POST,
    relatedCommentId: null,
    relatedSessionId: null,
    relatedEventId: null,
    createdAt: new Date(2026, 10, 23, 10, 60 - serial).toISOString(),
    actor: { name: actor, avatarUrl: null },
    ...extra,
  }
}

describe('the bell groups repeated notifications', () => {
  test('names: two, three, and more', () => {
    expect(joinNames(['Ana'])).toBe('Ana')
    expect(joinNames(['Ana', 'Luis'])).toBe('Ana y Luis')
    expect(joinNames(['Ana', 'Luis', 'Marta'])).toBe('Ana, Luis y Marta')
    expect(joinNames(['Ana', 'Luis', 'Marta', 'Pablo', 'Sara'])).toBe('Ana, Luis y 3 más')
  })

  test("five members' comments on one post are one line; a lone like keeps its own message", () => {
    const items = [
      ...['Ana', 'Luis', 'Marta', 'Pablo', 'Sara'].map((name) => notification('comment', name)),
      notification('like', 'Ana', { message: 'A Ana le gusta tu post «Hola»', isRead: true }),
    ]
    const groups = groupNotifications(items)
    expect(groups).toHaveLength(2)
    expect(groups[0]).toMatchObject({
      message: 'Ana, Luis y 3 más comentaron tu publicación',
      isRead: false,
      ids: items.slice(0, 5).map((item) => item.id),
    })
    expect(groups[1]).toMatchObject({ message: 'A Ana le gusta tu post «Hola»', isRead: true })
  })

  test('one member commenting twice is not "Ana y Ana"; other posts and other kinds stay apart', () => {
    const other = '22222222-2222-4222-8222-222222222222'
    const groups = groupNotifications([
      notification('comment', 'Ana'),
      notification('comment', 'Ana'),
      notification('comment', 'Luis', { relatedPostId: other }),
      notification('other', 'Sistema', { relatedPostId: null }),
    ])
    expect(groups.map((group) => group.message)).toEqual([
      'Ana ha comentado en tu post «Hola»',
      'Luis ha comentado en tu post «Hola»',
      'Sistema ha comentado en tu post «Hola»',
    ])
    expect(groups[0]!.ids).toHaveLength(2)
  })

  test('a group is unread while any of its notifications is', () => {
    const [group] = groupNotifications([notification('like', 'Ana', { isRead: true }), notification('like', 'Luis')])
    expect(group).toMatchObject({ isRead: false, message: 'A Ana y Luis les gusta tu publicación' })
  })

  test("a session's comments group by the session and lead to its page", () => {
    const SESSION = '22222222-2222-4222-8222-222222222222'
    const onSession = { relatedPostId: null, relatedSessionId: SESSION }
    const groups = groupNotifications([
      notification('session_comment', 'Ana', onSession),
      notification('session_comment', 'Luis', onSession),
      notification('new_session', 'Marta', { ...onSession, message: 'Ya puedes ver «Liderar»' }),
    ])
    expect(groups.map((group) => group.message)).toEqual(['Ana y Luis comentaron tu sesión', 'Ya puedes ver «Liderar»'])
    expect(linkOf(groups[0]!.latest)).toBe(`/video/${SESSION}#comentarios`)
    expect(linkOf(groups[1]!.latest)).toBe(`/video/${SESSION}`)
    expect(linkOf(notification('comment', 'Ana'))).toBe(`/comunidad?comentarios=${POST}#post-${POST}`)
    expect(linkOf(notification('event_spot', 'Sistema', { relatedPostId: null, relatedEventId: SESSION }))).toBe(
      `/comunidad/calendario/${SESSION}`,
    )
  })
})
