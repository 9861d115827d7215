DROP INDEX "ceo_session_comments_review_idx";--> statement-breakpoint
DROP INDEX "community_comments_review_idx";--> statement-breakpoint
DROP INDEX "community_posts_review_idx";--> statement-breakpoint
DROP INDEX "moderation_reports_open_idx";--> statement-breakpoint
CREATE INDEX "moderation_reports_open_item_idx" ON "moderation_reports" USING btree ("kind","item_id","created_at","id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "ceo_session_comments_review_idx" ON "ceo_session_comments" USING btree ("review_requested_at","id") WHERE "ceo_session_comments"."hidden_at" is not null and "ceo_session_comments"."review_requested_at" is not null;--> statement-breakpoint
CREATE INDEX "community_comments_review_idx" ON "community_comments" USING btree ("review_requested_at","id") WHERE "community_comments"."hidden_at" is not null and "community_comments"."review_requested_at" is not null;--> statement-breakpoint
CREATE INDEX "community_posts_review_idx" ON "community_posts" USING btree ("review_requested_at","id") WHERE "community_posts"."hidden_at" is not null and "community_posts"."review_requested_at" is not null;--> statement-breakpoint
CREATE INDEX "moderation_reports_open_idx" ON "moderation_reports" USING btree ("created_at","item_id") WHERE status = 'open';