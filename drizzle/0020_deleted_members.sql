ALTER TABLE "ceo_session_comments" DROP CONSTRAINT "ceo_session_comments_user_id_user_id_fk";
--> statement-breakpoint
ALTER TABLE "community_comments" DROP CONSTRAINT "community_comments_user_id_user_id_fk";
--> statement-breakpoint
ALTER TABLE "community_posts" DROP CONSTRAINT "community_posts_user_id_user_id_fk";
--> statement-breakpoint
ALTER TABLE "ceo_session_comments" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "community_comments" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "community_posts" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ceo_session_comments" ADD CONSTRAINT "ceo_session_comments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_comments" ADD CONSTRAINT "community_comments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "community_posts" ADD CONSTRAINT "community_posts_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;