CREATE TYPE "public"."job_status" AS ENUM('queued', 'running', 'done', 'failed');--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" "job_status" DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "jobs_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- E-mail not yet delivered moves to the job queue: nothing queued before the upgrade is lost.
INSERT INTO "jobs" ("name", "payload", "dedupe_key", "created_at")
SELECT 'mail.send', jsonb_build_object('to', "to_address", 'subject', "subject", 'html', "html", 'text', "text"),
       CASE WHEN "dedupe_key" IS NULL THEN NULL ELSE 'mail.send:' || "dedupe_key" END, "created_at"
FROM "mail_outbox" WHERE "status" IN ('pending', 'sending');--> statement-breakpoint
-- The app's limits now live in rate_limits; better-auth's table keeps only its own.
DELETE FROM "rate_limit" WHERE "key" LIKE 'app:%';--> statement-breakpoint
DROP TABLE "mail_outbox" CASCADE;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE status in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_failed_idx" ON "jobs" USING btree ("created_at") WHERE status = 'failed';--> statement-breakpoint
DROP TYPE "public"."mail_status";