// Seeds a benchmark database: run by scripts/bench.js as a child process, with the same
// environment as the server it will start (DATA_DIR, and DATABASE_URL for PostgreSQL).
//
// 1. The built server bundle opens the database once (openForCli: takes the PGlite lock,
//    applies the migrations, including the post categories) and closes it (shutDown).
// 2. A connection of our own (PGlite on $DATA_DIR/db, or `pg` on DATABASE_URL) inserts the
//    data set in one transaction of set-based INSERT … SELECT FROM generate_series, the bulk
//    tables' indexes and foreign keys set aside and built again once their rows are in
//    (deferChecks, below) (at ×1; BENCH_SCALE multiplies the counts, below):
//      1,000 members (user + credential account + profile; 90 % complete, a third premium; a fifth
//      of them active on each of the last 84 days, for the console's active members),
//      10,000 posts over ~350 days (2 pinned, 1 in 8 with attachments), ~30,000 comments
//      (a third of them replies), ~55,000 post likes, ~45,000 comment likes, and 100,000
//      notifications, 300 of them for the member the benchmark signs in as (bench-viewer@example.com).
//    Counters (like_count, comment_count) are written with the rows, from the same rules.
//    Categories are spread on purpose so that a category filter shows 0, 1, 8 or 20 posts.
//    Also an admin (bench-admin@example.com, role 'admin': the upload phase creates a session as
//    them) and 500 published CEO sessions over ~7 years, created by the admin, with likes,
//    comments and the viewer's progress ('Continuar viendo'); 150 of them are tagged
//    'Biotecnología' (the bench's search). The published_sessions counter is kept by its trigger.
//    The avatar files the profiles name are written too (one small WebP, in DATA_DIR/uploads),
//    and so are the sessions' thumbnails and, for the newest session only, its video (the
//    test fixture tests/fixtures/session.webm): the other sessions name a video that is not there.
// 3. Prints one JSON line on stdout: row counts, the viewer's and the admin's credentials,
//    category ids, feed cursors (page 2, a deep page, the last page) in the app's cursor format,
//    and the sessions' ids, search and library cursor the bench needs.
import { createHash } from 'node:crypto'
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { hashPassword } from 'better-auth/crypto'

export const VIEWER_EMAIL = 'bench-viewer@example.com'
export const VIEWER_PASSWORD = 'bench-password-2024'
export const ADMIN_EMAIL = 'bench-admin@example.com'

const root = process.cwd()
/**
 * Issue 38: BENCH_SCALE (1, 10 or 100) multiplies every count; ×10 is 10,000 members, 100,000
 * posts, ~300,000 comments, 5,000 sessions, 2,000 events and 1,000,000 notifications. At ×100 the
 * notifications stay at the ×10 count (10 million rows would only measure the seeding).
 */
const SCALE = Number(process.env.BENCH_SCALE ?? 1)
/** The counts at a scale (NOTIFICATIONS, REPORTED_POSTS: posts with three open reports each). */
const countsAt = (scale) => ({
  MEMBERS: 1000 * scale,
  POSTS: 10000 * scale,
  SESSIONS: 500 * scale,
  /** Issue 13: the calendar is measured with 200 events (×1). */
  EVENTS: 200 * scale,
  NOTIFICATIONS: 100_000 * Math.min(scale, 10),
  APPLICATIONS: 5000 * scale,
  REPORTED_POSTS: 100 * scale,
  AUDIT_LINES: 20_000 * scale,
  /** The most likes a post and a comment get (p % 11 and (p + c) % 4 under these). */
  POST_LIKES: 10,
  COMMENT_LIKES: 3,
})
const { MEMBERS, POSTS, SESSIONS } = countsAt(SCALE)
/** Session 1, the newest: the one whose video file exists. */
const VIDEO_SESSION = 1
const SEARCH_TAG = 'Biotecnología'
/** The library's page (app/features/ceo-sessions/library.server.ts LIBRARY_PAGE_SIZE). */
const LIBRARY_PAGE = 12

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

const SESSION_TITLES = [
  'Cómo llevamos una innovación de la fase III al hospital',
  'Liderar un laboratorio en plena transformación digital',
  'Negociar el precio de un medicamento huérfano',
  'De startup biotecnológica a compañía global',
  'El acceso al mercado en España, sin atajos',
  'Construir equipos médicos que aprenden',
  'Lanzar en Europa con un presupuesto contenido',
  'Datos de vida real para decidir mejor',
]
const CEO_POSITIONS = ['CEO', 'Country Manager', 'Managing Director', 'General Manager', 'CEO y fundador']
// Index 2 ('Biotecnología') is the bench's search: (n + 3k) % 10 puts it on 150 of the 500 sessions.
const SESSION_TAGS = [
  'Liderazgo',
  'Acceso al mercado',
  SEARCH_TAG,
  'Estrategia',
  'Innovación',
  'Precios',
  'Equipos',
  'Transformación digital',
  'Oncología',
  'Lanzamientos',
]

const literal = (value) => `'${String(value).replaceAll("'", "''")}'`
const array = (values) => `ARRAY[${values.map(literal).join(', ')}]`

// Session ids are md5-based like the posts', with the version (4) and variant (8) digits of a
// random UUID: the video page checks its parameter with Zod's z.uuid(), which refuses others.
const sessionId = (n) => seededUuid(`bench-session-${n}`)
/** uuidSql's value for a text, computed here. */
const seededUuid = (text) =>
  createHash('md5')
    .update(text)
    .digest('hex')
    .replace(/^(.{12}).(.{3}).(.{15})$/, '$14$28$3')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')
/** Such an id in SQL, from an SQL text expression; the session's for session number `n`. */
const uuidSql = (text) => `overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17)::uuid`
const sessionIdSql = (n) => uuidSql(`'bench-session-' || ${n}`)
const thumbnailKey = (n) => `sessions/${sessionId(n)}/thumb_1700000000000.webp`
// The key the app's processing job would give a WebM (local-video.server.ts), for every session.
const videoKey = (n) => `sessions/${sessionId(n)}/video_1.webm`

/** The app's search text (sessions.server.ts searchTextOf), computed the same way. */
function searchTextOf({ title, ceoName, ceoCompany, summary, description, tags }) {
  return [title, ceoName, ceoCompany, summary, description, ...tags]
    .join(' ')
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
}

/** One VALUES row per session: texts are built here so that search_text is the app's. */
function sessionValues(sessions, scale) {
  const rows = []
  for (let n = 1; n <= sessions; n++) {
    const ceoName = `${FIRST_NAMES[n % FIRST_NAMES.length]} ${LAST_NAMES[(n * 3) % LAST_NAMES.length]}`
    const ceoCompany = COMPANIES[n % COMPANIES.length]
    const topic = TOPICS[n % TOPICS.length]
    const fields = {
      title: `${SESSION_TITLES[n % SESSION_TITLES.length]} (${n})`,
      ceoName,
      ceoCompany,
      summary: `${ceoName} cuenta cómo ${ceoCompany} abordó ${topic} y qué haría distinto hoy.`,
      description:
        `Una conversación abierta sobre ${topic}. ` +
        `${ceoName} repasa las decisiones de ${ceoCompany} en los últimos años, los errores que más enseñaron ` +
        'y cómo se organizó el equipo directivo para llegar a tiempo. Al final, preguntas de los miembros.\n\n' +
        'Material complementario y referencias en el PDF de la sesión cuando lo hay.',
      tags: [...new Set(Array.from({ length: 1 + (n % 4) }, (_, k) => SESSION_TAGS[(n + k * 3) % SESSION_TAGS.length]))],
    }
    // Every five days back from now (×1; denser at larger scales): ~7 years. Whole hours, as a date typed in the form has no
    // seconds (the library's cursor is in milliseconds). Published two days after the session.
    const date = `date_trunc('hour', now()) - interval '${Math.round((n * 120) / scale)} hours'`
    rows.push(
      `(${literal(sessionId(n))}::uuid, ${literal(fields.title)}, ${literal(fields.summary)}, ${literal(fields.description)}, ` +
        `${literal(ceoName)}, ${literal(CEO_POSITIONS[n % CEO_POSITIONS.length])}, ${literal(ceoCompany)}, ${date}, ` +
        `${n === VIDEO_SESSION ? 1 : 30 + (n % 60)}, ${array(fields.tags)}::text[], ${n % 25 === 1}, ${literal(searchTextOf(fields))}, ` +
        `${literal(thumbnailKey(n))}, 'local', ${literal(videoKey(n))}, 'video/webm', 'ready', 'published', ${((n * 37) % 900) + 20}, ` +
        `'bench-admin', ${date} + interval '1 day', ${date} + interval '2 days', ${date} + interval '2 days')`,
    )
  }
  return rows.join(',\n       ')
}

/**
 * The seeding script at a scale; `counts` overrides some of its counts (the EXPLAIN test,
 * tests/scale.test.ts, seeds fewer notifications).
 */
export function seedSql(passwordHash, scale = SCALE, counts = {}) {
  const { MEMBERS, POSTS, SESSIONS, EVENTS, NOTIFICATIONS, APPLICATIONS, REPORTED_POSTS, AUDIT_LINES, POST_LIKES, COMMENT_LIKES } = {
    ...countsAt(scale),
    ...counts,
  }
  return `
BEGIN;
${deferChecks(BULK_TABLES)}

INSERT INTO "user" (id, name, email, email_verified, first_name, last_name, created_at, updated_at)
SELECT 'bench-u' || n, fn || ' ' || ln,
       CASE WHEN n = 1 THEN ${literal(VIEWER_EMAIL)} ELSE 'miembro' || n || '@example.com' END,
       true, fn, ln, now() - (${MEMBERS} - n) * interval '${32400 / scale} seconds', now() - (${MEMBERS} - n) * interval '${32400 / scale} seconds'
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
-- The counters the app keeps on the rows are written with them, from the rules below that make the
-- likes and comments (an UPDATE after would leave broken HOT chains for the indexes built at the end).
INSERT INTO community_posts (id, user_id, title, content, post_type, category_id, is_pinned, like_count, comment_count, created_at, updated_at)
SELECT md5('bench-post-' || p)::uuid,
       'bench-u' || (1 + (p * 37) % ${MEMBERS}),
       'Reflexiones sobre ' || (${array(TOPICS)})[1 + p % ${TOPICS.length}] || ' (' || p || ')',
       repeat('En nuestra compañía hemos aprendido mucho sobre ' || (${array(TOPICS)})[1 + (p * 5) % ${TOPICS.length}] || '. ', 2 + p % 6)
         || '¿Cómo lo estáis abordando en vuestras organizaciones?',
       'text',
       (SELECT id FROM post_categories WHERE name = CASE
          WHEN p = 4242 THEN 'Médico'
          WHEN p % ${1250 * scale} = 7 THEN 'Acceso al mercado'
          WHEN p % 10 = 0 THEN NULL
          ELSE (ARRAY['General', 'Liderazgo', 'Ventas y marketing'])[1 + p % 3] END),
       p IN (5000, 9990),
       -- Likes: least(p % 11, POST_LIKES) members, and the viewer on one post in four unless among them.
       least(p % 11, ${POST_LIKES}) + CASE WHEN p % 4 = 0 AND NOT EXISTS (
         SELECT 1 FROM generate_series(1, least(p % 11, ${POST_LIKES})) j WHERE (p * 7 + j * 131) % ${MEMBERS} = 0) THEN 1 ELSE 0 END,
       p % 7,
       now() - (${POSTS} - p) * interval '${3000 / scale} seconds',
       now() - (${POSTS} - p) * interval '${3000 / scale} seconds'
FROM generate_series(1, ${POSTS}) p;

INSERT INTO post_attachments (post_id, file_name, file_path, file_type, file_size, created_at)
SELECT md5('bench-post-' || p)::uuid, 'informe-' || p || '.pdf',
       'attachments/bench-u' || (1 + (p * 37) % ${MEMBERS}) || '/' || md5('bench-pdf-' || p)::uuid || '.pdf',
       'application/pdf', 120000 + p, now() - (${POSTS} - p) * interval '${3000 / scale} seconds'
FROM generate_series(8, ${POSTS}, 8) p
UNION ALL
SELECT md5('bench-post-' || p)::uuid, 'grafico-' || p || '.jpg',
       'attachments/bench-u' || (1 + (p * 37) % ${MEMBERS}) || '/' || md5('bench-jpg-' || p)::uuid || '.jpg',
       'image/jpeg', 240000 + p, now() - (${POSTS} - p) * interval '${3000 / scale} seconds'
FROM generate_series(24, ${POSTS}, 24) p;

-- Post p gets p % 7 comments; every third comment answers the post's first comment.
INSERT INTO community_comments (id, post_id, user_id, content, parent_comment_id, like_count, created_at, updated_at)
SELECT md5('bench-comment-' || p || '-' || c)::uuid, md5('bench-post-' || p)::uuid,
       'bench-u' || (1 + (p * 13 + c * 101) % ${MEMBERS}),
       'Muy interesante. En mi experiencia, ' || (${array(TOPICS)})[1 + (p + c) % ${TOPICS.length}] || ' requiere paciencia y datos.',
       CASE WHEN c % 3 = 0 THEN md5('bench-comment-' || p || '-1')::uuid END,
       least((p + c) % 4, ${COMMENT_LIKES}),
       least(now(), now() - (${POSTS} - p) * interval '${3000 / scale} seconds' + c * interval '5 minutes'),
       least(now(), now() - (${POSTS} - p) * interval '${3000 / scale} seconds' + c * interval '5 minutes')
FROM generate_series(1, ${POSTS}) p CROSS JOIN generate_series(1, 6) c
WHERE c <= p % 7;

-- Post p gets p % 11 likes from distinct members; the viewer also likes one post in four.
INSERT INTO post_likes (post_id, user_id, created_at)
SELECT md5('bench-post-' || p)::uuid, 'bench-u' || (1 + (p * 7 + j * 131) % ${MEMBERS}), now()
FROM generate_series(1, ${POSTS}) p CROSS JOIN generate_series(1, ${POST_LIKES}) j
WHERE j <= p % 11;
INSERT INTO post_likes (post_id, user_id, created_at)
SELECT md5('bench-post-' || p)::uuid, 'bench-u1', now() FROM generate_series(4, ${POSTS}, 4) p
ON CONFLICT DO NOTHING;

INSERT INTO comment_likes (comment_id, user_id, created_at)
SELECT md5('bench-comment-' || p || '-' || c)::uuid, 'bench-u' || (1 + (p * 3 + c * 17 + k * 211) % ${MEMBERS}), now()
FROM generate_series(1, ${POSTS}) p CROSS JOIN generate_series(1, 6) c CROSS JOIN generate_series(1, ${COMMENT_LIKES}) k
WHERE c <= p % 7 AND k <= (p + c) % 4;


-- The admin: created the seeded sessions, and creates the one of the upload phase.
INSERT INTO "user" (id, name, email, email_verified, first_name, last_name, created_at, updated_at)
VALUES ('bench-admin', 'Beatriz Ortega', ${literal(ADMIN_EMAIL)}, true, 'Beatriz', 'Ortega', now(), now());
INSERT INTO account (id, account_id, provider_id, user_id, password, created_at, updated_at)
VALUES ('bench-acc-admin', 'bench-admin', 'credential', 'bench-admin', ${literal(passwordHash)}, now(), now());
INSERT INTO profiles (user_id, first_name, last_name, company, position, avatar_url, is_premium, welcomed_at, created_at, updated_at)
VALUES ('bench-admin', 'Beatriz', 'Ortega', 'Círculo CEO', 'Administradora', '/uploads/avatars/bench-admin/avatar_1700000000000.webp',
        false, now(), now(), now());
INSERT INTO user_roles (user_id, role) VALUES ('bench-admin', 'admin');

-- Sessions: published with their video ready, as the processing job leaves them (the row's
-- trigger counts each in published_sessions).
INSERT INTO ceo_sessions (id, title, summary, description, ceo_name, ceo_position, ceo_company, session_date, duration_minutes,
                          tags, is_featured, search_text, thumbnail_key, video_provider, video_key, video_content_type,
                          upload_status, publication_status, view_count, created_by, created_at, updated_at, published_at)
VALUES ${sessionValues(SESSIONS, scale)};

-- Session s gets s % 13 likes from distinct members; the viewer likes one in six (the video's too).
INSERT INTO ceo_session_likes (session_id, user_id, created_at)
SELECT ${sessionIdSql('s')}, 'bench-u' || (2 + (s * 11 + j * 97) % ${MEMBERS - 1}), now()
FROM generate_series(1, ${SESSIONS}) s CROSS JOIN generate_series(1, 12) j
WHERE j <= s % 13;
INSERT INTO ceo_session_likes (session_id, user_id, created_at)
SELECT ${sessionIdSql('s')}, 'bench-u1', now() FROM generate_series(1, ${SESSIONS}, 6) s;

-- s % 5 comments (the video's session 12); every third answers the session's first comment.
INSERT INTO ceo_session_comments (id, session_id, user_id, content, parent_comment_id, created_at, updated_at)
SELECT ${uuidSql(`'bench-session-comment-' || s || '-' || c`)}, cs.id,
       'bench-u' || (1 + (s * 17 + c * 29) % ${MEMBERS}),
       'Gracias por compartirlo. Lo de ' || (${array(TOPICS)})[1 + (s + c) % ${TOPICS.length}] || ' nos pasa igual.',
       CASE WHEN c % 3 = 0 THEN ${uuidSql(`'bench-session-comment-' || s || '-1'`)} END,
       least(now(), cs.published_at + c * interval '2 hours'), least(now(), cs.published_at + c * interval '2 hours')
FROM generate_series(1, ${SESSIONS}) s
JOIN ceo_sessions cs ON cs.id = ${sessionIdSql('s')}
CROSS JOIN generate_series(1, 12) c
WHERE c <= CASE WHEN s = ${VIDEO_SESSION} THEN 12 ELSE s % 5 END;

UPDATE ceo_sessions cs SET like_count = l.n
FROM (SELECT session_id, count(*)::int AS n FROM ceo_session_likes GROUP BY session_id) l WHERE l.session_id = cs.id;
UPDATE ceo_sessions cs SET comment_count = c.n
FROM (SELECT session_id, count(*)::int AS n FROM ceo_session_comments GROUP BY session_id) c WHERE c.session_id = cs.id;

-- The viewer started six sessions ('Continuar viendo' shows the four latest).
INSERT INTO ceo_session_progress (session_id, user_id, position_seconds, updated_at)
SELECT ${sessionIdSql('s')}, 'bench-u1', CASE WHEN s = ${VIDEO_SESSION} THEN 2 ELSE 60 * s END, now() - s * interval '1 hour'
FROM unnest(ARRAY[${VIDEO_SESSION}, 3, 8, 15, 22, 40]) s;

-- 200 events, one every 18 hours from two months ago on (about 40 a month), at 19:00-ish in
-- Madrid; every third has 30 places. Event e has e % 26 registered members; the viewer is
-- registered for one in four.
INSERT INTO events (id, title, description, event_date, time_zone, duration_minutes, location, event_type, max_attendees,
                    created_by, created_at, updated_at)
SELECT ${uuidSql(`'bench-event-' || e`)},
       'Encuentro ' || e || ': ' || (${array(TOPICS)})[1 + e % ${TOPICS.length}],
       'Una conversación entre directivos sobre ' || (${array(TOPICS)})[1 + (e + 3) % ${TOPICS.length}] || '.',
       date_trunc('day', now()) - interval '60 days' + interval '18 hours' + e * interval '18 hours',
       'Europe/Madrid', 90, CASE e % 3 WHEN 1 THEN NULL ELSE 'Madrid, Paseo de la Castellana ' || e END,
       (ARRAY['presencial', 'virtual', 'hibrido'])[1 + e % 3]::event_type, CASE WHEN e % 3 = 0 THEN 30 END,
       'bench-admin', now(), now()
FROM generate_series(1, ${EVENTS}) e;
INSERT INTO event_attendees (event_id, user_id, status, registered_at)
SELECT ${uuidSql(`'bench-event-' || e`)}, 'bench-u' || (2 + (e * 7 + k * 13) % ${MEMBERS - 1}), 'registered', now() - k * interval '1 hour'
FROM generate_series(1, ${EVENTS}) e CROSS JOIN generate_series(1, 25) k
WHERE k <= e % 26;
INSERT INTO event_attendees (event_id, user_id, status, registered_at)
SELECT ${uuidSql(`'bench-event-' || e`)}, 'bench-u1', 'registered', now() FROM generate_series(4, ${EVENTS}, 4) e;
UPDATE events ev SET registered_count = a.n
FROM (SELECT event_id, count(*)::int AS n FROM event_attendees WHERE status = 'registered' GROUP BY event_id) a WHERE a.event_id = ev.id;

INSERT INTO notifications (user_id, type, title, message, is_read, related_post_id, actor_user_id, created_at)
SELECT 'bench-u1', 'like', 'Nuevo like', 'A un miembro le gusta tu post', n > 40,
       md5('bench-post-' || (n * 1000 % ${POSTS} + 1000))::uuid, 'bench-u' || (2 + n), now() - n * interval '3 hours'
FROM generate_series(1, 300) n;
-- The other members' notifications (read, a hundred each on average): the table's size, not the viewer's page.
INSERT INTO notifications (user_id, type, title, message, is_read, related_post_id, actor_user_id, created_at)
SELECT 'bench-u' || (2 + n % ${MEMBERS - 1}), 'like', 'Nuevo like', 'A un miembro le gusta tu post', true,
       md5('bench-post-' || (1 + n % ${POSTS}))::uuid, 'bench-u' || (1 + (n * 7) % ${MEMBERS}), now() - (n % 8760) * interval '1 hour'
FROM generate_series(1, ${NOTIFICATIONS - 300}) n;

-- Issue 26: 5,000 applications (×1) to join over a year, in every state, each with its first history line.
INSERT INTO admission_applications (id, email, first_name, last_name, linkedin_url, company, position, sector, years_experience,
  target_role, contribution, expectations, status, created_at, updated_at, closed_at)
SELECT ${uuidSql(`'bench-application-' || n`)}, 'candidata' || n || '@example.com',
       (${array(FIRST_NAMES)})[1 + n % ${FIRST_NAMES.length}], (${array(LAST_NAMES)})[1 + n % ${LAST_NAMES.length}],
       'https://www.linkedin.com/in/candidata-' || n, (${array(COMPANIES)})[1 + n % ${COMPANIES.length}],
       (${array(POSITIONS)})[1 + n % ${POSITIONS.length}],
       (ARRAY['pharma', 'biotech', 'medtech', 'diagnostics', 'digital_health', 'other'])[1 + n % 6], 5 + n % 25, 'CEO',
       'Quince años dirigiendo equipos de operaciones y calidad.', 'Conversaciones francas con quien ya ha llegado.',
       s.status::admission_status, now() - n * interval '${105 / scale} minutes', now() - n * interval '${105 / scale} minutes',
       CASE WHEN s.status IN ('approved', 'rejected', 'withdrawn') THEN now() - n * interval '${100 / scale} minutes' END
FROM generate_series(1, ${APPLICATIONS}) n
CROSS JOIN LATERAL (SELECT (ARRAY['pending', 'pending', 'info_requested', 'waitlisted', 'approved', 'rejected', 'rejected', 'withdrawn'])[1 + n % 8] AS status) s;
INSERT INTO admission_events (application_id, kind, created_at)
SELECT id, 'submitted', created_at FROM admission_applications;

-- Issue 28: 300 open reports on 100 posts (×1; three members each) for the moderation queue.
INSERT INTO moderation_reports (user_id, kind, item_id, reason, note, created_at)
SELECT 'bench-u' || (10 + r), 'post', md5('bench-post-' || (p * 37 % ${POSTS} + 1))::uuid,
       (ARRAY['spam', 'offensive', 'false', 'off_topic', 'confidential', 'other'])[1 + (p + r) % 6]::report_reason,
       CASE WHEN r = 1 THEN 'Lo he visto repetido varias veces.' END, now() - p * interval '${7 / scale} minutes'
FROM generate_series(1, ${REPORTED_POSTS}) p CROSS JOIN generate_series(1, 3) r;

-- The console's log: 20,000 lines (×1) of sign-ins refused and premium granted, over a year.
INSERT INTO audit_log (action, actor_user_id, target_user_id, details, ip_address, created_at)
SELECT CASE WHEN n % 4 = 0 THEN 'premium_granted' ELSE 'sign_in_failed' END,
       CASE WHEN n % 4 = 0 THEN 'bench-admin' END, 'bench-u' || (1 + n % ${MEMBERS}), '{}'::jsonb, '127.0.0.1',
       now() - n * interval '${1580 / scale} seconds'
FROM generate_series(1, ${AUDIT_LINES}) n;

-- The console's active members (migration 0045's counters, kept by its triggers): a fifth of the
-- members used the community each day of the last 12 weeks, each member every fifth day.
INSERT INTO member_activity_days (day, user_id)
SELECT current_date - d, 'bench-u' || u
FROM generate_series(0, 83) d CROSS JOIN generate_series(1, ${MEMBERS}) u
WHERE (u + d) % 5 = 0;

-- Issue 41: private messages. Each member talks with the next three (5 messages each conversation),
-- and the viewer has 40 conversations, the first of 30 messages, five of them unread.
INSERT INTO conversations (id, user_a, user_b, state, started_by, created_at, last_message_at, a_last_read_at, b_last_read_at)
SELECT ${uuidSql(`'bench-conversation-' || i || '-' || d`)}, least('bench-u' || i, 'bench-u' || (i + d)), greatest('bench-u' || i, 'bench-u' || (i + d)),
       'accepted', 'bench-u' || i, now() - interval '30 days', now(), now(), now()
FROM generate_series(2, ${MEMBERS - 3}) i CROSS JOIN generate_series(1, 3) d;
INSERT INTO messages (id, conversation_id, sender_id, body, idempotency_key, created_at)
SELECT ${uuidSql(`'bench-message-' || i || '-' || d || '-' || m`)}, ${uuidSql(`'bench-conversation-' || i || '-' || d`)},
       CASE WHEN m % 2 = 0 THEN 'bench-u' || i ELSE 'bench-u' || (i + d) END,
       'Mensaje ' || m || ': ¿hablamos la semana que viene del acceso al mercado?', md5('bench-message-' || i || '-' || d || '-' || m),
       now() - (i % 720) * interval '1 hour' - (5 - m) * interval '1 minute'
FROM generate_series(2, ${MEMBERS - 3}) i CROSS JOIN generate_series(1, 3) d CROSS JOIN generate_series(1, 5) m;
INSERT INTO conversations (id, user_a, user_b, state, started_by, created_at, last_message_at, a_last_read_at, b_last_read_at, a_unread)
SELECT ${uuidSql(`'bench-viewer-conversation-' || k`)}, 'bench-u1', 'bench-u' || (1 + k), 'accepted', 'bench-u' || (1 + k),
       now() - interval '30 days', now(), CASE WHEN k <= 5 THEN now() - interval '3 days' ELSE now() END, now(), CASE WHEN k <= 5 THEN 1 ELSE 0 END
FROM generate_series(1, 40) k;
INSERT INTO messages (id, conversation_id, sender_id, body, idempotency_key, created_at)
SELECT ${uuidSql(`'bench-viewer-message-' || k || '-' || m`)}, ${uuidSql(`'bench-viewer-conversation-' || k`)},
       CASE WHEN m % 2 = 0 THEN 'bench-u1' ELSE 'bench-u' || (1 + k) END,
       'Mensaje ' || m || E': gracias por la sesión de ayer.\n¿Te viene bien un café el jueves? https://www.example.com/agenda',
       md5('bench-viewer-message-' || k || '-' || m), now() - k * interval '2 hours' - (30 - m) * interval '1 minute'
FROM generate_series(1, 40) k CROSS JOIN generate_series(1, 30) m WHERE k = 1 OR m <= 3;
UPDATE conversations c SET last_message_id = l.id, last_message_at = l.created_at
FROM (SELECT DISTINCT ON (conversation_id) conversation_id, id, created_at FROM messages ORDER BY conversation_id, created_at DESC, id DESC) l
WHERE l.conversation_id = c.id;
UPDATE profiles SET unread_messages = 5 WHERE user_id = 'bench-u1';

-- Issue 40: the console's promotion codes, a year of an operator's partners' codes (40, a few ended).
INSERT INTO promotion_codes (id, code, coupon_id, percent_off, amount_off_cents, duration, duration_months, max_redemptions, expires_at, active, created_at)
SELECT 'promo_bench_' || k, 'SOCIO' || k, 'coupon_bench_' || k, CASE WHEN k % 2 = 0 THEN 10 + k % 40 END, CASE WHEN k % 2 = 1 THEN 5000 END,
       (CASE k % 3 WHEN 0 THEN 'once' WHEN 1 THEN 'repeating' ELSE 'forever' END)::coupon_duration, CASE WHEN k % 3 = 1 THEN 3 END,
       CASE WHEN k % 4 = 0 THEN 50 END, CASE WHEN k % 5 = 0 THEN now() - interval '1 day' ELSE now() + interval '90 days' END, k % 7 <> 0,
       now() - k * interval '9 days'
FROM generate_series(1, 40) k;

${restoreChecks()}
COMMIT;
ANALYZE;
`
}

/** The tables the seed fills by the hundred thousand (at ×10). */
const BULK_TABLES = [
  'community_posts',
  'post_attachments',
  'community_comments',
  'post_likes',
  'comment_likes',
  'notifications',
  'admission_applications',
  'admission_events',
  'audit_log',
]

/**
 * Issue 38: ×10 in minutes. A row inserted into a table with its indexes and foreign keys updates
 * every index (a GIN index of its search vector among them) and checks each reference one row at
 * a time; the bulk tables' indexes are built once, sorted, after their rows are in, and their
 * foreign keys added back, each checked by one join. Only the indexes and keys that no constraint
 * and no ON CONFLICT need (unique ones stay), and they are recreated from their own definitions,
 * so the schema after the seed is the migrations'. The same transaction: a failure leaves nothing.
 */
function deferChecks(tables) {
  const names = tables.map(literal).join(', ')
  return `
SET LOCAL maintenance_work_mem = '128MB';
CREATE TEMP TABLE seed_deferred ON COMMIT DROP AS
SELECT 1 AS step, format('DROP INDEX %s', i.indexrelid::regclass) AS undo, pg_get_indexdef(i.indexrelid) AS redo
FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
WHERE t.relnamespace = 'public'::regnamespace AND t.relname IN (${names})
  AND NOT i.indisunique AND NOT i.indisprimary AND NOT i.indisexclusion
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
UNION ALL
SELECT 2, format('ALTER TABLE %s DROP CONSTRAINT %I', c.conrelid::regclass, c.conname),
       format('ALTER TABLE %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid))
FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
WHERE c.contype = 'f' AND t.relnamespace = 'public'::regnamespace AND t.relname IN (${names});
DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT undo FROM seed_deferred ORDER BY step DESC LOOP EXECUTE r.undo; END LOOP;
END $$;`
}

function restoreChecks() {
  return `DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT redo FROM seed_deferred ORDER BY step LOOP EXECUTE r.redo; END LOOP;
END $$;`
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
    'ceo_sessions',
    'ceo_session_likes',
    'ceo_session_comments',
    'ceo_session_progress',
    'events',
    'event_attendees',
    'admission_applications',
    'moderation_reports',
    'audit_log',
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
  // The library's cursor (platform/http/query.ts dateCursor): `<session_date in ms>_<id>`.
  const [libraryRow] = await query(
    `SELECT (extract(epoch from session_date) * 1000)::bigint::text AS ms, id::text AS id FROM ceo_sessions
     WHERE publication_status = 'published' ORDER BY session_date DESC, id DESC OFFSET ${LIBRARY_PAGE - 1} LIMIT 1`,
  )
  const search = searchTextOf({ title: SEARCH_TAG, ceoName: '', ceoCompany: '', summary: '', description: '', tags: [] }).trim()
  const [matches] = await query(
    `SELECT count(*)::int AS n FROM ceo_sessions WHERE publication_status = 'published' AND search_text LIKE ${literal(`%${search}%`)}`,
  )
  const [counter] = await query(`SELECT value::int AS n FROM community_counters WHERE name = 'published_sessions'`)
  // An upcoming event with the most attendees: the event page with its list at its longest.
  const [event] = await query(
    `SELECT id::text AS id FROM events WHERE event_date > now() ORDER BY registered_count DESC, event_date LIMIT 1`,
  )
  const [application] = await query(
    `SELECT id::text AS id FROM admission_applications WHERE status = 'pending' ORDER BY created_at DESC LIMIT 1`,
  )
  return {
    counts,
    categories,
    application: application.id,
    cursors: {
      page2: await cursorAfter(9), // posts 11-20
      page250: await cursorAfter(2489), // posts 2,491-2,500
      last: await cursorAfter(POSTS - 6), // the last 5 posts
    },
    sessions: {
      withVideo: sessionId(VIDEO_SESSION),
      search: SEARCH_TAG,
      searchMatches: matches.n,
      libraryPage2: `${libraryRow.ms}_${libraryRow.id}`,
      publishedCounter: counter.n,
    },
    events: { busiest: event.id },
    // The viewer's conversation of 30 messages (the id the seed gave it).
    conversation: seededUuid('bench-viewer-conversation-1'),
  }
}

/**
 * The files the seeded rows name, so that pages load them as they would real ones: avatars,
 * session thumbnails, and the one session video (a few seconds of WebM, for range requests).
 */
async function writeFiles() {
  const { default: sharp } = await import('sharp')
  const image = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#0b4f4a' } })
    .webp()
    .toBuffer()
  const uploads = path.join(process.env.DATA_DIR, 'uploads')
  const write = (key, body) => {
    mkdirSync(path.dirname(path.join(uploads, key)), { recursive: true })
    writeFileSync(path.join(uploads, key), body)
  }
  for (let n = 1; n <= MEMBERS; n++) {
    if (n !== 1 && n % 10 === 0) continue
    write(`avatars/bench-u${n}/avatar_1700000000000.webp`, image)
  }
  write('avatars/bench-admin/avatar_1700000000000.webp', image)
  const thumbnail = await sharp({ create: { width: 320, height: 180, channels: 3, background: '#1d3b53' } })
    .webp()
    .toBuffer()
  for (let n = 1; n <= SESSIONS; n++) write(thumbnailKey(n), thumbnail)
  copyFileSync(path.join(root, 'tests/fixtures/session.webm'), path.join(uploads, videoKey(VIDEO_SESSION)))
}

/**
 * A community's tables as they are between its writes, not just after a bulk load: vacuumed, so
 * that the visibility map lets index-only scans skip the heap (rows just written are not yet
 * all-visible) and autovacuum does not start on millions of fresh rows while the pages are timed,
 * and checkpointed, so that the load's gigabytes of dirty pages are not written out meanwhile
 * (at ×100, /healthz, a `select 1`, had read 1.5× slower than at ×1). Each on its own: VACUUM
 * refuses a transaction, and a script of several statements is one.
 */
const SETTLE = ['VACUUM', 'CHECKPOINT']

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
      for (const statement of SETTLE) await client.query(statement)
      result = await facts(async (text) => (await client.query(text)).rows)
    } finally {
      await client.end()
    }
  } else {
    const { PGlite } = await import('@electric-sql/pglite')
    const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent')
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
    const pglite = await PGlite.create(path.join(process.env.DATA_DIR.replace(/\/+$/, ''), 'db'), { extensions: { unaccent, pg_trgm } })
    try {
      await pglite.exec(script)
      for (const statement of SETTLE) await pglite.exec(statement)
      result = await facts(async (text) => (await pglite.query(text)).rows)
    } finally {
      await pglite.close()
    }
  }
  await writeFiles()
  const seconds = (ms) => Math.round(ms / 100) / 10
  console.log(
    JSON.stringify({
      ...result,
      viewer: { email: VIEWER_EMAIL, password: VIEWER_PASSWORD },
      admin: { email: ADMIN_EMAIL, password: VIEWER_PASSWORD },
      migrateSeconds: seconds(migratedMs),
      seedSeconds: seconds(performance.now() - started - migratedMs),
    }),
  )
}

// Run by the bench (`node bench/seed.js`); imported by the EXPLAIN test for its script.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main().catch((error) => {
    console.error(error)
    process.exit(1)
  })
