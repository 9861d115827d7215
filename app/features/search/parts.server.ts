import type { Parts } from '~/platform/parts.server'

export const searchParts: Parts = {
  // Declared so the export's reader knows it was considered: it holds no one.
  memberData: { tables: { search_misses: { not: 'searches with no result counted per day and text, without who searched' } } },
  console: [{ path: '/admin/busquedas', label: 'Búsquedas sin resultado' }],
}
