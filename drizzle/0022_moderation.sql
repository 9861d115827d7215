CREATE TYPE "public"."moderation_action" AS ENUM('hide', 'delete', 'dismiss', 'restore');--> statement-breakpoint
CREATE TYPE "public"."report_reason" AS ENUM('spam', 'offensive', 'false', 'off_topic', 'confidential', 'other');--> statement-breakpoint
CREATE TYPE "public"."report_status" AS ENUM('open', 'actioned', 'dismissed');--> statement-breakpoint
CREATE TYPE "public"."reported_kind" AS ENUM('post', 'comment', 'session_comment');--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'moderation_report';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'moderation_outcome';--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'moderation_hidden';--> statement-breakpoint
CREATE TABLE "moderation_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "reported_kind" NOT NULL,
	"item_id" uuid NOT NULL,
	"user_id" text,
	"decided_by" text,
	"action" "moderation_action" NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"kind" "reported_kind" NOT NULL,
	"item_id" uuid NOT NULL,
	"reason" "report_reason" NOT NULL,
	"note" text,
	"status" "report_status" DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ceo_session_comments" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ceo_session_comments" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "ceo_session_comments" ADD COLUMN "review_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "community_comments" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "community_comments" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "community_comments" ADD COLUMN "review_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "community_posts" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "community_posts" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "community_posts" ADD COLUMN "review_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "reports" "notification_channel" DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_decided_by_user_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_reports" ADD CONSTRAINT "moderation_reports_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_decisions_user_idx" ON "moderation_decisions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "moderation_decisions_item_idx" ON "moderation_decisions" USING btree ("kind","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_reports_one_open_idx" ON "moderation_reports" USING btree ("user_id","kind","item_id") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "moderation_reports_item_idx" ON "moderation_reports" USING btree ("kind","item_id");--> statement-breakpoint
CREATE INDEX "moderation_reports_open_idx" ON "moderation_reports" USING btree ("created_at") WHERE status = 'open';