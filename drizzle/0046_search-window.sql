DROP INDEX "ceo_sessions_library_idx";--> statement-breakpoint
CREATE INDEX "ceo_session_comments_created_idx" ON "ceo_session_comments" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "ceo_sessions_search_text_trgm_idx" ON "ceo_sessions" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "ceo_sessions_library_idx" ON "ceo_sessions" USING btree ("publication_status","session_date" DESC NULLS FIRST,"id" DESC NULLS FIRST);