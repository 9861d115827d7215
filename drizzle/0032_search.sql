-- Issue 39: one search for the whole community (decisions/0031). Hand-written: drizzle-kit knows
-- none of it, and schema.ts does not declare these columns, so it never proposes to drop them;
-- search.server.ts reads them with sql``.
-- Spanish as people type it: the `spanish` stemmer after `unaccent`, so 'regulacion' meets 'regulación'.
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION es_unaccent (COPY = spanish);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION es_unaccent ALTER MAPPING FOR hword, hword_part, word WITH unaccent, spanish_stem;
--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change): this wrapper names the dictionary, so an
-- index may use it (the well-known pattern). Lower-cased too: names are compared folded.
CREATE FUNCTION f_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;
--> statement-breakpoint
-- The Spanish stemmer knows '-ación' but not '-acion': after unaccent, 'licitacion' would stay whole
-- while 'licitaciones' becomes 'licit'. Every '-cion'/'-sion' word is written as its plural first,
-- so singular and plural, with or without the accent, are the same text before stemming.
-- Schema-qualified, as in f_unaccent: pg_restore runs the generated columns with an empty search_path.
CREATE FUNCTION f_search_text(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT regexp_replace(public.f_unaccent($1), '([cs]ion)\M', '\1es', 'g') $$;
--> statement-breakpoint
-- Weighted vectors, kept by PostgreSQL: A the title, B who and where, C the summary, D the rest.
ALTER TABLE "community_posts" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text("title")), 'A') ||
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text(coalesce("content", ''))), 'B')) STORED;
--> statement-breakpoint
ALTER TABLE "community_comments" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  to_tsvector('es_unaccent'::regconfig, f_search_text("content"))) STORED;
--> statement-breakpoint
ALTER TABLE "ceo_session_comments" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  to_tsvector('es_unaccent'::regconfig, f_search_text("content"))) STORED;
--> statement-breakpoint
ALTER TABLE "ceo_sessions" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text("title")), 'A') ||
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text("ceo_name" || ' ' || "ceo_company" || ' ' || "ceo_position")), 'B') ||
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text("summary")), 'C') ||
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text("description")), 'D')) STORED;
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text("title")), 'A') ||
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text(coalesce("location", ''))), 'B') ||
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text("description")), 'C') ||
  setweight(to_tsvector('es_unaccent'::regconfig, f_search_text(coalesce("content", ''))), 'D')) STORED;
--> statement-breakpoint
CREATE INDEX "community_posts_search_idx" ON "community_posts" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "community_comments_search_idx" ON "community_comments" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "ceo_session_comments_search_idx" ON "ceo_session_comments" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "ceo_sessions_search_idx" ON "ceo_sessions" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "events_search_idx" ON "events" USING gin ("search_vector");
--> statement-breakpoint
-- The few hidden posts, so a comment's search skips those of a hidden post without reading every post.
CREATE INDEX "community_posts_hidden_idx" ON "community_posts" ("id") WHERE "hidden_at" IS NOT NULL;
--> statement-breakpoint
-- A typo in a name or a company still finds the member: trigrams of the folded text. The work
-- index covers company and position; the query uses it only for members who show where they work.
CREATE INDEX "profiles_name_trgm_idx" ON "profiles" USING gin (
  f_unaccent(coalesce("display_name", '') || ' ' || coalesce("first_name", '') || ' ' || coalesce("last_name", '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "profiles_work_trgm_idx" ON "profiles" USING gin (
  f_unaccent(coalesce("company", '') || ' ' || coalesce("position", '')) gin_trgm_ops);
