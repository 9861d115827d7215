CREATE TYPE "public"."coupon_duration" AS ENUM('once', 'repeating', 'forever');--> statement-breakpoint
CREATE TABLE "promotion_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"coupon_id" text NOT NULL,
	"percent_off" integer,
	"amount_off_cents" integer,
	"duration" "coupon_duration" NOT NULL,
	"duration_months" integer,
	"max_redemptions" integer,
	"expires_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_codes_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "payment_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "failing_invoice_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "failure_notified_invoice_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "promotion_code_id" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_reason_text" text;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_reason_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "promotion_codes_created_idx" ON "promotion_codes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_payment_failed_idx" ON "subscriptions" USING btree ("user_id") WHERE payment_failed_at is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_paused_idx" ON "subscriptions" USING btree ("user_id") WHERE paused_until is not null;--> statement-breakpoint
CREATE INDEX "subscriptions_promotion_code_idx" ON "subscriptions" USING btree ("promotion_code_id") WHERE promotion_code_id is not null;