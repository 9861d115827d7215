import { describe, expect, test } from 'vitest'
import { placeholderFields, site } from '~/site.config'

describe('site configuration', () => {
  test('names every field still holding the example data it ships with', () => {
    expect(placeholderFields()).toEqual(
      expect.arrayContaining(['taxId', 'contactEmail', 'privacyEmail', 'phone', 'admissionFormUrl', 'bookingUrl']),
    )
  })

  test('an operator’s own details pass', () => {
    const own = {
      ...site,
      taxId: 'B12345678',
      contactEmail: 'hola@circuloceo.es',
      privacyEmail: 'privacidad@circuloceo.es',
      phone: '+34 931 234 567',
      admissionFormUrl: 'https://forms.gle/abc',
      bookingUrl: 'https://cal.com/circuloceo',
    } as unknown as typeof site
    expect(placeholderFields(own)).toEqual([])
  })
})
