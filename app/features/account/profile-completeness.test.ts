import { describe, expect, test } from 'vitest'
import { displayName } from './display-name'
import { isProfileComplete, missingProfileFields } from './profile-completeness'

describe('profile completeness (5 items, trimmed)', () => {
  const complete = { avatarUrl: '/a.png', firstName: 'Ana', lastName: 'Gil', company: 'Uno', position: 'CMO' }

  test('complete only when all five are non-empty after trimming', () => {
    expect(isProfileComplete(complete)).toBe(true)
    expect(isProfileComplete({ ...complete, company: '   ' })).toBe(false)
    expect(isProfileComplete(null)).toBe(false)
  })

  test('lists what is missing in the spec order with Spanish labels', () => {
    expect(missingProfileFields({ firstName: 'Ana', lastName: 'Gil' }).map((field) => field.label)).toEqual([
      'Foto profesional',
      'Empresa actual',
      'Cargo',
    ])
  })
})

describe('display name priority', () => {
  test.each([
    [{ displayName: ' Dra. Gil ', firstName: 'Ana', lastName: 'Gil' }, 'Dra. Gil'],
    [{ displayName: '  ', firstName: 'Ana', lastName: 'Gil' }, 'Ana Gil'],
    [{ firstName: 'Ana', lastName: null }, 'Ana'],
    [{ firstName: null, lastName: 'Gil' }, 'Usuario'],
    [null, 'Usuario'],
  ])('%j → %s', (profile, expected) => {
    expect(displayName(profile)).toBe(expected)
  })

  test('some places use another fallback', () => {
    expect(displayName({}, 'Usuario sin nombre')).toBe('Usuario sin nombre')
  })
})
