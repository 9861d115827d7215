CREATE TYPE "public"."admission_status" AS ENUM('pending', 'info_requested', 'waitlisted', 'approved', 'rejected', 'withdrawn');--> statement-breakpoint
ALTER TYPE "public"."notification_type" ADD VALUE 'admission_application';--> statement-breakpoint
CREATE TABLE "admission_applications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"phone" text,
	"linkedin_url" text NOT NULL,
	"company" text NOT NULL,
	"position" text NOT NULL,
	"sector" text NOT NULL,
	"years_experience" integer NOT NULL,
	"target_role" text NOT NULL,
	"contribution" text NOT NULL,
	"expectations" text NOT NULL,
	"referral" text,
	"status" "admission_status" DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"user_id" text,
	"invitation_used_at" timestamp with time zone,
	"search" text GENERATED ALWAYS AS (translate(lower(first_name || ' ' || last_name || ' ' || email || ' ' || company), 'áàâäãéèêëíìîïóòôöõúùûüñçÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇ', 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc')) STORED
);
--> statement-breakpoint
CREATE TABLE "admission_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor_user_id" text,
	"body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "admissions" "notification_channel" DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "admission_applications" ADD CONSTRAINT "admission_applications_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admission_events" ADD CONSTRAINT "admission_events_application_id_admission_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."admission_applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admission_events" ADD CONSTRAINT "admission_events_actor_user_id_user_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admission_open_email_idx" ON "admission_applications" USING btree ("email") WHERE "admission_applications"."status" in ('pending', 'info_requested', 'waitlisted');--> statement-breakpoint
CREATE INDEX "admission_email_idx" ON "admission_applications" USING btree ("email");--> statement-breakpoint
CREATE INDEX "admission_status_created_idx" ON "admission_applications" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admission_created_idx" ON "admission_applications" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admission_closed_idx" ON "admission_applications" USING btree ("closed_at") WHERE "admission_applications"."closed_at" is not null;--> statement-breakpoint
CREATE INDEX "admission_events_application_idx" ON "admission_events" USING btree ("application_id","created_at");