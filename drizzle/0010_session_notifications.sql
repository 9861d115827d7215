ALTER TYPE "public"."notification_type" ADD VALUE 'new_session';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'session_comment';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'session_comment_reply';--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "related_session_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_related_session_id_ceo_sessions_id_fk" FOREIGN KEY ("related_session_id") REFERENCES "public"."ceo_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_session_idx" ON "notifications" USING btree ("related_session_id") WHERE "notifications"."related_session_id" is not null;