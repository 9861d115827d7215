// Seeds a benchmark database: run by scripts/bench.js as a child process, with the same
// environment as the server it will start (DATA_DIR, and DATABASE_URL for PostgreSQL).
//
// 1. The built server bundle opens the database once (openForCli: takes the PGlite lock,
//    applies the migrations, including the post categories) and closes it (shutDown).
// 2. A connection of our own (PGlite on $DATA_DIR/db, or `pg` on DATABASE_URL) inserts the
//    data set in one transaction of set-based INSERT … SELECT FROM generate_series:
//      1,000 members (user + credential account + profile; 90 % complete, a third premium),
//      10,000 posts over ~350 days (2 pinned, 1 in 8 with attachments), ~30,000 comments
//      (a third of them replies), ~55,000 post likes, ~45,000 comment likes, and 300
//      notifications for the member the benchmark signs in as (bench-viewer@example.com).
//    Counters (like_count, comment_count) are then computed from the rows, as the app keeps them.
//    Categories are spread on purpose so that a category filter shows 0, 1, 8 or 20 posts.
//    The avatar files the profiles name are written too (one small WebP, in DATA_DIR/uploads).
// 3. Prints one JSON line on stdout: row counts, the viewer's credentials, category ids,
//    and feed cursors (page 2, a deep page, the last page) in the app's cursor format.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { hashPassword } from 'better-auth/crypto'

export const VIEWER_EMAIL = 'bench-viewer@example.com'
export const VIEWER_PASSWORD = 'bench-password-2024'

const root = process.cwd()
const MEMBERS = 1000
const POSTS = 10000

const FIRST_NAMES = [
  'Lucía',
  'Javier',
  'María',
  'Carlos',
  'Elena',
  'Pablo',
  'Carmen',
  'Andrés',
  'Isabel',
  'Miguel',
  'Laura',
  'Fernando',
  'Ana',
  'Sergio',
  'Marta',
  'Álvaro',
  'Paula',
  'Diego',
  'Cristina',
  'Raúl',
]
const LAST_NAMES = [
  'García',
  'Fernández',
  'González',
  'Rodríguez',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Martín',
  'Jiménez',
  'Ruiz',
  'Hernández',
  'Díaz',
  'Moreno',
  'Muñoz',
  'Álvarez',
  'Romero',
  'Alonso',
  'Navarro',
]
const COMPANIES = [
  'Laboratorios Norte',
  'BioSur Pharma',
  'MedTech Ibérica',
  'Genómica Atlántica',
  'Farma Levante',
  'Clínica Digital',
  'Vacunas del Ebro',
  'Oncología Avanzada',
]
const POSITIONS = [
  'Directora General',
  'Director Médico',
  'Head of Market Access',
  'Country Manager',
  'Directora Comercial',
  'VP Marketing',
  'Director de Operaciones',
  'CEO',
]
const TOPICS = [
  'el acceso al mercado',
  'los lanzamientos de 2025',
  'la negociación con las CCAA',
  'el liderazgo de equipos médicos',
  'la evaluación de tecnologías sanitarias',
  'la transformación digital',
  'los ensayos descentralizados',
  'la fijación de precios',
]

const literal = (value) => `'${String(value).replaceAll("'", "''")}'`
const array = (values) => `ARRAY[${values.map(literal).join(', ')}]`

function seedSql(passwordHash) {
  return `
BEGIN;

INSERT INTO "user" (id, name, email, email_verified, first_name, last_name, created_at, updated_at)
SELECT 'bench-u' || n, fn || ' ' || ln,
       CASE WHEN n = 1 THEN ${literal(VIEWER_EMAIL)} ELSE 'miembro' || n || '@example.com' END,
       true, fn, ln, now() - (${MEMBERS} - n) * interval '9 hours', now() - (${MEMBERS} - n) * interval '9 hours'
FROM (SELECT n, (${array(FIRST_NAMES)})[1 + n % ${FIRST_NAMES.length}] AS fn,
             (${array(LAST_NAMES)})[1 + (n * 7) % ${LAST_NAMES.length}] AS ln
      FROM generate_series(1, ${MEMBERS}) n) s;

INSERT INTO account (id, account_id, provider_id, user_id, password, created_at, updated_at)
SELECT 'bench-acc' || n, 'bench-u' || n, 'credential', 'bench-u' || n, ${literal(passwordHash)}, now(), now()
FROM generate_series(1, ${MEMBERS}) n;

-- Member 1 is the viewer: complete and premium. One in ten others has no photo (incomplete).
INSERT INTO profiles (user_id, first_name, last_name, company, position, avatar_url, is_premium, welcomed_at, created_at, updated_at)
SELECT 'bench-u' || n, u.first_name, u.last_name,
       (${array(COMPANIES)})[1 + n % ${COMPANIES.length}],
       (${array(POSITIONS)})[1 + (n * 3) % ${POSITIONS.length}],
       CASE WHEN n <> 1 AND n % 10 = 0 THEN NULL ELSE '/uploads/avatars/bench-u' || n || '/avatar_1700000000000.webp' END,
       n = 1 OR n % 3 = 0, now(), u.created_at, u.created_at
FROM generate_series(1, ${MEMBERS}) n JOIN "user" u ON u.id = 'bench-u' || n;

-- Categories: 'Oportunidades' gets no post, 'Médico' one, 'Acceso al mercado' eight,
-- one post in ten none, the rest shared by 'General', 'Liderazgo' and 'Ventas y marketing'.
INSERT INTO community_posts (id, user_id, title, content, post_type, category_id, is_pinned, created_at, updated_at)
SELECT md5('bench-post-' || p)::uuid,
       'bench-u' || (1 + (p * 37) % ${MEMBERS}),
       'Reflexiones sobre ' || (${array(TOPICS)})[1 + p % ${TOPICS.length}] || ' (' || p || ')',
       repeat('En nuestra compañía hemos aprendido mucho sobre ' || (${array(TOPICS)})[1 + (p * 5) % ${TOPICS.length}] || '. ', 2 + p % 6)
         || '¿Cómo lo estáis abordando en vuestras organizaciones?',
       'text',
       (SELECT id FROM post_categories WHERE name = CASE
          WHEN p = 4242 THEN 'Médico'
          WHEN p % 1250 = 7 THEN 'Acceso al mercado'
          WHEN p % 10 = 0 THEN NULL
          ELSE (ARRAY['General', 'Liderazgo', 'Ventas y marketing'])[1 + p % 3] END),
       p IN (5000, 9990),
       now() - (${POSTS} - p) * interval '50 minutes',
       now() - (${POSTS} - p) * interval '50 minutes'
FROM generate_series(1, ${POSTS}) p;

INSERT INTO post_attachments (post_id, file_name, file_path, file_type, file_size, created_at)
SELECT md5('bench-post-' || p)::uuid, 'informe-' || p || '.pdf',
       'attachments/bench-u' || (1 + (p * 37) % ${MEMBERS}) || '/' || md5('bench-pdf-' || p)::uuid || '.pdf',
       'application/pdf', 120000 + p, now() - (${POSTS} - p) * interval '50 minutes'
FROM generate_series(8, ${POSTS}, 8) p
UNION ALL
SELECT md5('bench-post-' || p)::uuid, 'grafico-' || p || '.jpg',
       'attachments/bench-u' || (1 + (p * 37) % ${MEMBERS}) || '/' || md5('bench-jpg-' || p)::uuid || '.jpg',
       'image/jpeg', 240000 + p, now() - (${POSTS} - p) * interval '50 minutes'
FROM generate_series(24, ${POSTS}, 24) p;

-- Post p gets p % 7 comments; every third comment answers the post's first comment.
INSERT INTO community_comments (id, post_id, user_id, content, parent_comment_id, created_at, updated_at)
SELECT md5('bench-comment-' || p || '-' || c)::uuid, md5('bench-post-' || p)::uuid,
       'bench-u' || (1 + (p * 13 + c * 101) % ${MEMBERS}),
       'Muy interesante. En mi experiencia, ' || (${array(TOPICS)})[1 + (p + c) % ${TOPICS.length}] || ' requiere paciencia y datos.',
       CASE WHEN c % 3 = 0 THEN md5('bench-comment-' || p || '-1')::uuid END,
       least(now(), now() - (${POSTS} - p) * interval '50 minutes' + c * interval '5 minutes'),
       least(now(), now() - (${POSTS} - p) * interval '50 minutes' + c * interval '5 minutes')
FROM generate_series(1, ${POSTS}) p CROSS JOIN generate_series(1, 6) c
WHERE c <= p % 7;

-- Post p gets p % 11 likes from distinct members; the viewer also likes one post in four.
INSERT INTO post_likes (post_id, user_id, created_at)
SELECT md5('bench-post-' || p)::uuid, 'bench-u' || (1 + (p * 7 + j * 131) % ${MEMBERS}), now()
FROM generate_series(1, ${POSTS}) p CROSS JOIN generate_series(1, 10) j
WHERE j <= p % 11;
INSERT INTO post_likes (post_id, user_id, created_at)
SELECT md5('bench-post-' || p)::uuid, 'bench-u1', now() FROM generate_series(4, ${POSTS}, 4) p
ON CONFLICT DO NOTHING;

INSERT INTO comment_likes (comment_id, user_id, created_at)
SELECT md5('bench-comment-' || p || '-' || c)::uuid, 'bench-u' || (1 + (p * 3 + c * 17 + k * 211) % ${MEMBERS}), now()
FROM generate_series(1, ${POSTS}) p CROSS JOIN generate_series(1, 6) c CROSS JOIN generate_series(1, 3) k
WHERE c <= p % 7 AND k <= (p + c) % 4;

UPDATE community_posts cp SET like_count = l.n
FROM (SELECT post_id, count(*)::int AS n FROM post_likes GROUP BY post_id) l WHERE l.post_id = cp.id;
UPDATE community_posts cp SET comment_count = c.n
FROM (SELECT post_id, count(*)::int AS n FROM community_comments GROUP BY post_id) c WHERE c.post_id = cp.id;
UPDATE community_comments cc SET like_count = l.n
FROM (SELECT comment_id, count(*)::int AS n FROM comment_likes GROUP BY comment_id) l WHERE l.comment_id = cc.id;

INSERT INTO notifications (user_id, type, title, message, is_read, related_post_id, actor_user_id, created_at)
SELECT 'bench-u1', 'like', 'Nuevo like', 'A un miembro le gusta tu post', n > 40,
       md5('bench-post-' || (n * 1000 % ${POSTS} + 1000))::uuid, 'bench-u' || (2 + n), now() - n * interval '3 hours'
FROM generate_series(1, 300) n;

COMMIT;
ANALYZE;
`
}

const FEED_ORDER = 'ORDER BY is_pinned DESC, created_at DESC, id DESC'

async function facts(query) {
  const counts = {}
  for (const table of [
    'user',
    'profiles',
    'community_posts',
    'post_attachments',
    'community_comments',
    'post_likes',
    'comment_likes',
    'notifications',
  ]) {
    const rows = await query(`SELECT count(*)::int AS n FROM "${table}"`)
    counts[table] = rows[0].n
  }
  const categories = await query(
    `SELECT c.id, c.name, count(p.id)::int AS posts FROM post_categories c LEFT JOIN community_posts p ON p.category_id = c.id GROUP BY c.id, c.name ORDER BY c.name`,
  )
  // The app's cursor: base64url(JSON [is_pinned, created_at in µs, id]) of the last post shown.
  const cursorAfter = async (offset) => {
    const [row] = await query(
      `SELECT is_pinned, (extract(epoch from created_at) * 1000000)::bigint::text AS micros, id::text AS id FROM community_posts ${FEED_ORDER} OFFSET ${offset} LIMIT 1`,
    )
    return Buffer.from(JSON.stringify([row.is_pinned, row.micros, row.id])).toString('base64url')
  }
  return {
    counts,
    categories,
    cursors: {
      page2: await cursorAfter(19), // posts 21-40
      page250: await cursorAfter(4979), // posts 4,981-5,000
      last: await cursorAfter(POSTS - 6), // the last 5 posts
    },
  }
}

/** The avatar files the seeded profiles name, so that pages load them as they would real ones. */
async function writeAvatars() {
  const { default: sharp } = await import('sharp')
  const image = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#0b4f4a' } })
    .webp()
    .toBuffer()
  const uploads = path.join(process.env.DATA_DIR, 'uploads', 'avatars')
  for (let n = 1; n <= MEMBERS; n++) {
    if (n !== 1 && n % 10 === 0) continue
    mkdirSync(path.join(uploads, `bench-u${n}`), { recursive: true })
    writeFileSync(path.join(uploads, `bench-u${n}`, 'avatar_1700000000000.webp'), image)
  }
}

async function main() {
  const started = performance.now()
  const app = await import(pathToFileURL(path.join(root, 'build/server/index.js')).href)
  await app.openForCli()
  await app.shutDown()
  const migratedMs = performance.now() - started

  const script = seedSql(await hashPassword(VIEWER_PASSWORD))
  let result
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await client.connect()
    try {
      await client.query(script)
      result = await facts(async (text) => (await client.query(text)).rows)
    } finally {
      await client.end()
    }
  } else {
    const { PGlite } = await import('@electric-sql/pglite')
    const pglite = await PGlite.create(path.join(process.env.DATA_DIR.replace(/\/+$/, ''), 'db'))
    try {
      await pglite.exec(script)
      result = await facts(async (text) => (await pglite.query(text)).rows)
    } finally {
      await pglite.close()
    }
  }
  await writeAvatars()
  const seconds = (ms) => Math.round(ms / 100) / 10
  console.log(
    JSON.stringify({
      ...result,
      viewer: { email: VIEWER_EMAIL, password: VIEWER_PASSWORD },
      migrateSeconds: seconds(migratedMs),
      seedSeconds: seconds(performance.now() - started - migratedMs),
    }),
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
