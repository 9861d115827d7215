ALTER TABLE "profiles" ADD COLUMN "listed_in_directory" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "shows_work" boolean DEFAULT true NOT NULL;