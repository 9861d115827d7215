import { getEnv } from '~/platform/env.server'
import { admissionSettings } from '~/features/admission/settings.server'
import { readSettings } from '~/platform/settings/settings.server'

/** The public, indexable pages (the member area and the auth pages are left out); the admission form while it is the way in. */
const PATHS = ['/', '/pricing', '/legal', '/privacidad'] as const

const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')

export async function loader() {
  const origin = getEnv().APP_URL
  const paths = (await readSettings(admissionSettings)).admissionMode === 'in_app' ? [...PATHS, '/admision'] : PATHS
  const urls = paths.map((path) => `  <url>\n    <loc>${escapeXml(`${origin}${path}`)}</loc>\n  </url>`).join('\n')
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`
  return new Response(xml, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  })
}
