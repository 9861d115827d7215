ALTER TABLE "session" ADD COLUMN "two_factor_passed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "two_factor" ADD COLUMN "last_totp_step" integer;