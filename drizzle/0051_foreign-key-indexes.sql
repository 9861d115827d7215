CREATE INDEX "admission_user_idx" ON "admission_applications" USING btree ("user_id") WHERE "admission_applications"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "admission_events_actor_idx" ON "admission_events" USING btree ("actor_user_id") WHERE "admission_events"."actor_user_id" is not null;--> statement-breakpoint
CREATE INDEX "test_checkout_sessions_user_idx" ON "test_checkout_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "ceo_session_comments_parent_idx" ON "ceo_session_comments" USING btree ("parent_comment_id") WHERE "ceo_session_comments"."parent_comment_id" is not null;--> statement-breakpoint
CREATE INDEX "ceo_session_comments_user_idx" ON "ceo_session_comments" USING btree ("user_id") WHERE "ceo_session_comments"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "ceo_session_video_uploads_created_by_idx" ON "ceo_session_video_uploads" USING btree ("created_by");--> statement-breakpoint
CREATE INDEX "events_created_by_idx" ON "events" USING btree ("created_by") WHERE "events"."created_by" is not null;--> statement-breakpoint
CREATE INDEX "events_recording_idx" ON "events" USING btree ("recording_session_id") WHERE "events"."recording_session_id" is not null;--> statement-breakpoint
CREATE INDEX "community_comments_parent_idx" ON "community_comments" USING btree ("parent_comment_id") WHERE "community_comments"."parent_comment_id" is not null;--> statement-breakpoint
CREATE INDEX "community_comments_user_idx" ON "community_comments" USING btree ("user_id") WHERE "community_comments"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "moderation_decisions_decided_by_idx" ON "moderation_decisions" USING btree ("decided_by") WHERE "moderation_decisions"."decided_by" is not null;--> statement-breakpoint
CREATE INDEX "notifications_post_idx" ON "notifications" USING btree ("related_post_id") WHERE "notifications"."related_post_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_comment_idx" ON "notifications" USING btree ("related_comment_id") WHERE "notifications"."related_comment_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_actor_idx" ON "notifications" USING btree ("actor_user_id") WHERE "notifications"."actor_user_id" is not null;--> statement-breakpoint
CREATE INDEX "conversations_started_by_idx" ON "conversations" USING btree ("started_by");