ALTER TYPE "public"."moderation_action" ADD VALUE 'warn';--> statement-breakpoint
ALTER TYPE "public"."moderation_action" ADD VALUE 'suspend';--> statement-breakpoint
ALTER TYPE "public"."moderation_action" ADD VALUE 'ban';--> statement-breakpoint
ALTER TYPE "public"."moderation_action" ADD VALUE 'lift';--> statement-breakpoint
ALTER TYPE "public"."reported_kind" ADD VALUE 'member';--> statement-breakpoint
CREATE INDEX "profiles_restricted_idx" ON "profiles" USING btree ("user_id") WHERE suspended_until is not null or banned_at is not null;--> statement-breakpoint
CREATE INDEX "ceo_session_comments_review_idx" ON "ceo_session_comments" USING btree ("review_requested_at") WHERE "ceo_session_comments"."hidden_at" is not null and "ceo_session_comments"."review_requested_at" is not null;--> statement-breakpoint
CREATE INDEX "community_comments_review_idx" ON "community_comments" USING btree ("review_requested_at") WHERE "community_comments"."hidden_at" is not null and "community_comments"."review_requested_at" is not null;--> statement-breakpoint
CREATE INDEX "community_posts_review_idx" ON "community_posts" USING btree ("review_requested_at") WHERE "community_posts"."hidden_at" is not null and "community_posts"."review_requested_at" is not null;--> statement-breakpoint
-- One name for what moderation tells a member about their writing or account (hidden, deleted, restored, a warning, a suspension).
ALTER TYPE "public"."notification_type" RENAME VALUE 'moderation_hidden' TO 'moderation_decision';
