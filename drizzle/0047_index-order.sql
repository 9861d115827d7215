-- Issue 38: these indexes were built DESC NULLS LAST (drizzle-kit's default for .desc()), while their
-- queries order by plain DESC (NULLS FIRST): the planner read a group (a conversation's messages,
-- a member's conversations) through the index and sorted it. In the queries' order they stop at the page.
DROP INDEX "admission_status_created_idx";--> statement-breakpoint
DROP INDEX "ceo_session_progress_user_idx";--> statement-breakpoint
DROP INDEX "conversations_a_idx";--> statement-breakpoint
DROP INDEX "conversations_b_idx";--> statement-breakpoint
DROP INDEX "messages_conversation_idx";--> statement-breakpoint
CREATE INDEX "admission_status_created_idx" ON "admission_applications" USING btree ("status","created_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "ceo_session_progress_user_idx" ON "ceo_session_progress" USING btree ("user_id","updated_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "conversations_a_idx" ON "conversations" USING btree ("user_a","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "conversations_b_idx" ON "conversations" USING btree ("user_b","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);