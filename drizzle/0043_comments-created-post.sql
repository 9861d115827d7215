DROP INDEX "community_comments_created_idx";--> statement-breakpoint
CREATE INDEX "community_comments_created_idx" ON "community_comments" USING btree ("created_at","post_id");