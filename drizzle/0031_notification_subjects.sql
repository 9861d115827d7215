ALTER TABLE "notifications" ADD COLUMN "subject_user_id" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "application_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_subject_user_id_user_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_application_id_admission_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."admission_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_subject_idx" ON "notifications" USING btree ("subject_user_id") WHERE "notifications"."subject_user_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_application_idx" ON "notifications" USING btree ("application_id") WHERE "notifications"."application_id" is not null;--> statement-breakpoint
-- Notifications written before this migration: linked to what their words name by the time they share with it (one transaction wrote both).
-- Enums compared as text: on a new database every migration runs in one transaction, where values added to an enum cannot be used.
UPDATE "notifications" n SET "application_id" = e."application_id" FROM "admission_events" e
  WHERE n."type"::text = 'admission_application' AND e."kind"::text IN ('submitted', 'updated', 'answered') AND n."created_at" = e."created_at";--> statement-breakpoint
UPDATE "notifications" n SET "subject_user_id" = u."id" FROM "moderation_reports" r JOIN "user" u ON u."id" = r."item_id"::text
  WHERE n."type"::text = 'moderation_report' AND r."kind"::text = 'member' AND n."created_at" = r."created_at";--> statement-breakpoint
UPDATE "notifications" n SET "subject_user_id" = u."id" FROM "moderation_decisions" d JOIN "user" u ON u."id" = d."item_id"::text
  WHERE n."type"::text = 'moderation_outcome' AND d."kind"::text = 'member' AND n."created_at" = d."created_at";
