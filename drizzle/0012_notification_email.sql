CREATE TYPE "public"."digest_frequency" AS ENUM('never', 'daily', 'weekly');--> statement-breakpoint
CREATE TYPE "public"."notification_channel" AS ENUM('email', 'web', 'off');--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'event_reminder';--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"comments" "notification_channel" DEFAULT 'email' NOT NULL,
	"replies" "notification_channel" DEFAULT 'email' NOT NULL,
	"likes" "notification_channel" DEFAULT 'web' NOT NULL,
	"sessions" "notification_channel" DEFAULT 'web' NOT NULL,
	"events" "notification_channel" DEFAULT 'web' NOT NULL,
	"my_events" "notification_channel" DEFAULT 'email' NOT NULL,
	"digest" "digest_frequency" DEFAULT 'weekly' NOT NULL,
	"time_zone" text,
	"digest_period" text,
	"digest_sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "email_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_email_pending_idx" ON "notifications" USING btree ("user_id","created_at") WHERE "notifications"."email_pending";--> statement-breakpoint
-- Every profile has its preferences row, so the defaults are the table's and nothing else's.
INSERT INTO "notification_settings" ("user_id") SELECT "user_id" FROM "profiles" ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "add_notification_settings"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "notification_settings" ("user_id") VALUES (NEW."user_id") ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "profiles_notification_settings" AFTER INSERT ON "profiles"
  FOR EACH ROW EXECUTE FUNCTION "add_notification_settings"();
