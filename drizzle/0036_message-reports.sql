ALTER TYPE "public"."report_reason" ADD VALUE 'unwanted_messages';--> statement-breakpoint
ALTER TABLE "moderation_reports" ADD COLUMN "context" jsonb;