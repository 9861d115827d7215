// Regenerates the installed app's icons (issue 42) from the SVG written here:
//   node scripts/make-icons.js
// The brand has no drawn logo yet (the top bar writes the name): the icon is the circle of
// 'Círculo CEO' in the landing's gold on the theme's teal (app.css --color-primary), drawn
// without text so it renders the same without fonts. Replace the SVG with a real logo, same names.
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUT_DIR = path.join(root, 'public/icons')

const TEAL = '#0b4f4a'
const GOLD = '#d4a72c'

/**
 * The icon on a 512 grid. `safe` is the share of the width the drawing may use: a maskable icon
 * keeps it inside the central 80 % circle every platform's mask leaves visible.
 */
function svg({ safe, rounded }) {
  const r = 256 * safe
  const ring = r * 0.62
  const stroke = r * 0.16
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="${rounded ? 96 : 0}" fill="${TEAL}"/>
  <circle cx="256" cy="256" r="${ring}" fill="none" stroke="${GOLD}" stroke-width="${stroke}"/>
  <circle cx="${256 + ring * Math.cos(-Math.PI / 4)}" cy="${256 + ring * Math.sin(-Math.PI / 4)}" r="${stroke * 0.9}" fill="#ffffff"/>
</svg>`
}

const ICONS = [
  { file: 'icon-192.png', size: 192, safe: 0.9, rounded: true },
  { file: 'icon-512.png', size: 512, safe: 0.9, rounded: true },
  { file: 'icon-maskable-512.png', size: 512, safe: 0.7, rounded: false },
  // iOS rounds the corners itself and shows transparency as black: a full square.
  { file: 'apple-touch-icon.png', size: 180, safe: 0.8, rounded: false },
]

mkdirSync(OUT_DIR, { recursive: true })
for (const icon of ICONS) {
  await sharp(Buffer.from(svg(icon)))
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(OUT_DIR, icon.file))
  console.log(`public/icons/${icon.file}`)
}
