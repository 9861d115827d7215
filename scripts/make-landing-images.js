// Regenerates the landing page's stand-in images (abstract, no people) from SVGs written here:
//   node scripts/make-landing-images.js
// Two CEO's Night pictures as AVIF + WebP at 640 and 1280 px wide (16:10), and the
// Open Graph image (1200×630) as JPEG, which every social network reads.
// They are placeholders: replace them with real event photos (same names and sizes).
import { mkdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const OUT_DIR = path.join(root, 'public/images')
const WIDTHS = [640, 1280]
const MAX_BYTES = 60 * 1024

const NAVY = '#0b1f33'
const TEAL = '#0b4f4a'
const GOLD = '#b8860b'

/** A repeatable pseudo-random sequence, so every run draws the same picture. */
function random(seed) {
  let state = seed
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296
    return state / 4294967296
  }
}

function bokeh(rand, count, { x0, x1, y0, y1, rMin, rMax, colors, opacity }) {
  let circles = ''
  for (let index = 0; index < count; index += 1) {
    const x = x0 + rand() * (x1 - x0)
    const y = y0 + rand() * (y1 - y0)
    const r = rMin + rand() * (rMax - rMin)
    const color = colors[Math.floor(rand() * colors.length)]
    const alpha = (opacity[0] + rand() * (opacity[1] - opacity[0])).toFixed(2)
    circles += `<circle cx="${x.toFixed(0)}" cy="${y.toFixed(0)}" r="${r.toFixed(0)}" fill="${color}" fill-opacity="${alpha}"/>`
  }
  return circles
}

/** An evening on stage: spotlights on a lectern, a warm glow, an audience in silhouette. */
function stageSvg() {
  const rand = random(7)
  let audience = ''
  for (let row = 0; row < 3; row += 1) {
    const y = 640 + row * 62
    const size = 34 + row * 8
    for (let x = -20 + (row % 2) * 40; x < 1320; x += 78 + row * 10) {
      const jitter = (rand() - 0.5) * 18
      audience += `<circle cx="${x + jitter}" cy="${y - size * 0.9}" r="${size * 0.55}" fill="#050d17"/>`
      audience += `<rect x="${x + jitter - size}" y="${y - size * 0.35}" width="${size * 2}" height="${size * 2.4}" rx="${size * 0.9}" fill="#050d17"/>`
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800" viewBox="0 0 1280 800">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#07121f"/>
      <stop offset="0.55" stop-color="${NAVY}"/>
      <stop offset="1" stop-color="#0a2a35"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.5" cy="0.55" r="0.45">
      <stop offset="0" stop-color="${GOLD}" stop-opacity="0.55"/>
      <stop offset="0.45" stop-color="${TEAL}" stop-opacity="0.35"/>
      <stop offset="1" stop-color="${NAVY}" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="beam" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f5e6c4" stop-opacity="0.5"/>
      <stop offset="1" stop-color="#f5e6c4" stop-opacity="0"/>
    </linearGradient>
    <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#123a48"/>
      <stop offset="1" stop-color="#081826"/>
    </linearGradient>
    <filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="18"/></filter>
    <filter id="softer" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="6"/></filter>
  </defs>
  <rect width="1280" height="800" fill="url(#sky)"/>
  <g filter="url(#soft)">${bokeh(rand, 26, { x0: 0, x1: 1280, y0: 30, y1: 300, rMin: 8, rMax: 30, colors: ['#d9b45a', '#5fb3a8', '#f1e2bd'], opacity: [0.15, 0.45] })}</g>
  <rect width="1280" height="800" fill="url(#glow)"/>
  <g filter="url(#soft)">
    <polygon points="470,0 560,0 700,560 420,560" fill="url(#beam)"/>
    <polygon points="760,0 840,0 900,560 620,560" fill="url(#beam)" opacity="0.7"/>
  </g>
  <path d="M0 520 L1280 520 L1280 800 L0 800 Z" fill="url(#floor)"/>
  <ellipse cx="640" cy="540" rx="330" ry="34" fill="#f5e6c4" fill-opacity="0.18" filter="url(#softer)"/>
  <rect x="600" y="420" width="80" height="118" rx="6" fill="#0a1a2a" stroke="${GOLD}" stroke-opacity="0.6" stroke-width="3"/>
  <circle cx="640" cy="372" r="26" fill="#0a1a2a"/>
  <rect x="606" y="396" width="68" height="40" rx="20" fill="#0a1a2a"/>
  ${audience}
</svg>`
}

/** After the talk: a terrace over the city at night, lights out of focus, two glasses. */
function citySvg() {
  const rand = random(42)
  let skyline = ''
  let windows = ''
  for (let x = 0; x < 1280;) {
    const width = 50 + Math.floor(rand() * 90)
    const height = 140 + Math.floor(rand() * 300)
    const top = 560 - height
    skyline += `<rect x="${x}" y="${top}" width="${width - 6}" height="${height + 10}" fill="#081627"/>`
    for (let wy = top + 16; wy < 540; wy += 26) {
      for (let wx = x + 10; wx < x + width - 18; wx += 18) {
        if (rand() < 0.32)
          windows += `<rect x="${wx}" y="${wy}" width="8" height="12" fill="${rand() < 0.7 ? '#e8c36a' : '#8fd3c8'}" fill-opacity="${(0.35 + rand() * 0.5).toFixed(2)}"/>`
      }
    }
    x += width
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="800" viewBox="0 0 1280 800">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#050c16"/>
      <stop offset="0.6" stop-color="${NAVY}"/>
      <stop offset="1" stop-color="${TEAL}"/>
    </linearGradient>
    <radialGradient id="moon" cx="0.78" cy="0.18" r="0.3">
      <stop offset="0" stop-color="#f1e2bd" stop-opacity="0.35"/>
      <stop offset="1" stop-color="#f1e2bd" stop-opacity="0"/>
    </radialGradient>
    <linearGradient id="rail" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#0d2b3a"/>
      <stop offset="1" stop-color="#040a12"/>
    </linearGradient>
    <linearGradient id="glass" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#f5e6c4" stop-opacity="0.15"/>
      <stop offset="0.5" stop-color="#f5e6c4" stop-opacity="0.5"/>
      <stop offset="1" stop-color="#f5e6c4" stop-opacity="0.12"/>
    </linearGradient>
    <filter id="blur" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="5"/></filter>
    <filter id="bokeh" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="14"/></filter>
  </defs>
  <rect width="1280" height="800" fill="url(#sky)"/>
  <rect width="1280" height="800" fill="url(#moon)"/>
  <g filter="url(#blur)">${skyline}${windows}</g>
  <g filter="url(#bokeh)">${bokeh(rand, 30, { x0: 0, x1: 1280, y0: 380, y1: 640, rMin: 12, rMax: 42, colors: ['#e8c36a', '#b8860b', '#8fd3c8'], opacity: [0.2, 0.55] })}</g>
  <rect x="0" y="600" width="1280" height="200" fill="url(#rail)"/>
  <rect x="0" y="596" width="1280" height="6" fill="${GOLD}" fill-opacity="0.45"/>
  <g>
    <path d="M860 470 Q860 540 900 548 L900 650 L870 662 L950 662 L920 650 L920 548 Q960 540 960 470 Z" fill="url(#glass)"/>
    <path d="M866 500 Q870 536 910 540 Q950 536 954 500 Z" fill="${GOLD}" fill-opacity="0.55"/>
    <path d="M990 450 Q990 525 1032 534 L1032 650 L1000 662 L1084 662 L1052 650 L1052 534 Q1094 525 1094 450 Z" fill="url(#glass)"/>
    <path d="M996 486 Q1000 522 1042 526 Q1084 522 1088 486 Z" fill="${GOLD}" fill-opacity="0.5"/>
  </g>
</svg>`
}

/** The link preview: the name, the promise and the gold rule, on the navy of the site. */
function ogSvg() {
  const rand = random(3)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#07121f"/>
      <stop offset="0.6" stop-color="${NAVY}"/>
      <stop offset="1" stop-color="${TEAL}"/>
    </linearGradient>
    <filter id="bokeh" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="16"/></filter>
  </defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <g filter="url(#bokeh)">${bokeh(rand, 22, { x0: 640, x1: 1200, y0: 0, y1: 630, rMin: 14, rMax: 46, colors: ['#e8c36a', '#b8860b', '#8fd3c8'], opacity: [0.15, 0.45] })}</g>
  <rect x="80" y="150" width="96" height="6" fill="${GOLD}"/>
  <text x="80" y="250" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="84" font-weight="700" fill="#ffffff">Círculo CEO</text>
  <text x="80" y="330" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="36" fill="#e2e8f0">Pharma · Biotech · Medtech</text>
  <text x="80" y="430" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="34" fill="#f1e2bd">Un CEO cada mes. Un headhunter 1:1.</text>
  <text x="80" y="478" font-family="Liberation Sans, DejaVu Sans, sans-serif" font-size="34" fill="#f1e2bd">Tu camino a la dirección general.</text>
</svg>`
}

async function write(pipeline, file) {
  await pipeline.toFile(file)
  const { size } = statSync(file)
  console.log(`${path.relative(root, file)}  ${(size / 1024).toFixed(1)} KB`)
  if (size > MAX_BYTES) throw new Error(`${file} is larger than ${MAX_BYTES / 1024} KB`)
}

mkdirSync(OUT_DIR, { recursive: true })

for (const [name, svg] of [
  ['ceo-night-escenario', stageSvg()],
  ['ceo-night-terraza', citySvg()],
]) {
  const master = await sharp(Buffer.from(svg)).png().toBuffer()
  for (const width of WIDTHS) {
    const resized = () => sharp(master).resize({ width })
    await write(resized().avif({ quality: 50, effort: 6 }), path.join(OUT_DIR, `${name}-${width}.avif`))
    await write(resized().webp({ quality: 72, effort: 6 }), path.join(OUT_DIR, `${name}-${width}.webp`))
  }
}

await write(sharp(Buffer.from(ogSvg())).jpeg({ quality: 80, progressive: true, mozjpeg: true }), path.join(OUT_DIR, 'og-circulo-ceo.jpg'))
