ALTER TABLE "profiles" ADD COLUMN "premium_source" text;--> statement-breakpoint
-- Members premium before this column existed: by a subscription when they have a customer, else by an admin.
UPDATE "profiles" SET "premium_source" = CASE WHEN "stripe_customer_id" IS NULL THEN 'admin' ELSE 'subscription' END WHERE "is_premium";
