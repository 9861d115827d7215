DROP INDEX "admission_created_idx";--> statement-breakpoint
CREATE INDEX "ceo_session_likes_user_idx" ON "ceo_session_likes" USING btree ("user_id","session_id");--> statement-breakpoint
CREATE INDEX "comment_likes_user_idx" ON "comment_likes" USING btree ("user_id","comment_id");--> statement-breakpoint
CREATE INDEX "post_likes_user_idx" ON "post_likes" USING btree ("user_id","post_id");--> statement-breakpoint
CREATE INDEX "admission_created_idx" ON "admission_applications" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);