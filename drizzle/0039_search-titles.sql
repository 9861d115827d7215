-- Issue 38: /buscar ranks at most a thousand matches of a kind, title matches first
-- (decisions/0031). Hand-written, as the search columns of migration 0032: each title has its own
-- search index, so its matches are found without reading every row whose body has the word. The
-- expression is the one search.server.ts writes (`inTitle`), letter for letter.
CREATE INDEX "community_posts_title_search_idx" ON "community_posts" USING gin (to_tsvector('es_unaccent'::regconfig, f_search_text("title")));
--> statement-breakpoint
CREATE INDEX "ceo_sessions_title_search_idx" ON "ceo_sessions" USING gin (to_tsvector('es_unaccent'::regconfig, f_search_text("title")));
--> statement-breakpoint
CREATE INDEX "events_title_search_idx" ON "events" USING gin (to_tsvector('es_unaccent'::regconfig, f_search_text("title")));
