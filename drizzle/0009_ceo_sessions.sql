CREATE TYPE "public"."ceo_session_publication_status" AS ENUM('draft', 'processing', 'published', 'failed');--> statement-breakpoint
CREATE TYPE "public"."ceo_session_upload_status" AS ENUM('waiting', 'processing', 'ready', 'failed');--> statement-breakpoint
CREATE TYPE "public"."ceo_session_video_provider" AS ENUM('local', 'mux');--> statement-breakpoint
CREATE TABLE "ceo_session_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"content" text NOT NULL,
	"parent_comment_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ceo_session_likes" (
	"session_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ceo_session_likes_session_id_user_id_pk" PRIMARY KEY("session_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "ceo_session_progress" (
	"session_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"position_seconds" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ceo_session_progress_session_id_user_id_pk" PRIMARY KEY("session_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "ceo_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"description" text NOT NULL,
	"ceo_name" text NOT NULL,
	"ceo_position" text NOT NULL,
	"ceo_company" text NOT NULL,
	"session_date" timestamp with time zone NOT NULL,
	"duration_minutes" integer,
	"tags" text[] DEFAULT '{}' NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	"thumbnail_key" text,
	"pdf_key" text,
	"pdf_name" text,
	"captions_key" text,
	"video_provider" "ceo_session_video_provider" NOT NULL,
	"video_key" text,
	"video_content_type" text,
	"upload_id" text,
	"mux_asset_id" text,
	"mux_playback_id" text,
	"upload_status" "ceo_session_upload_status" DEFAULT 'waiting' NOT NULL,
	"publication_status" "ceo_session_publication_status" DEFAULT 'processing' NOT NULL,
	"failure_reason" text,
	"view_count" integer DEFAULT 0 NOT NULL,
	"like_count" integer DEFAULT 0 NOT NULL,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	CONSTRAINT "ceo_sessions_upload_id_unique" UNIQUE("upload_id"),
	CONSTRAINT "ceo_sessions_mux_asset_id_unique" UNIQUE("mux_asset_id")
);
--> statement-breakpoint
CREATE TABLE "ceo_session_video_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"created_by" text NOT NULL,
	"total_bytes" bigint,
	"received_bytes" bigint DEFAULT 0 NOT NULL,
	"writer_until" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ceo_session_video_uploads_session_id_unique" UNIQUE("session_id")
);
--> statement-breakpoint
ALTER TABLE "ceo_session_comments" ADD CONSTRAINT "ceo_session_comments_session_id_ceo_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ceo_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_session_comments" ADD CONSTRAINT "ceo_session_comments_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_session_comments" ADD CONSTRAINT "ceo_session_comments_parent_comment_id_ceo_session_comments_id_fk" FOREIGN KEY ("parent_comment_id") REFERENCES "public"."ceo_session_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_session_likes" ADD CONSTRAINT "ceo_session_likes_session_id_ceo_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ceo_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_session_likes" ADD CONSTRAINT "ceo_session_likes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_session_progress" ADD CONSTRAINT "ceo_session_progress_session_id_ceo_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ceo_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_session_progress" ADD CONSTRAINT "ceo_session_progress_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_sessions" ADD CONSTRAINT "ceo_sessions_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_session_video_uploads" ADD CONSTRAINT "ceo_session_video_uploads_session_id_ceo_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ceo_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_session_video_uploads" ADD CONSTRAINT "ceo_session_video_uploads_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ceo_session_comments_session_idx" ON "ceo_session_comments" USING btree ("session_id","created_at");--> statement-breakpoint
CREATE INDEX "ceo_session_progress_user_idx" ON "ceo_session_progress" USING btree ("user_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ceo_sessions_library_idx" ON "ceo_sessions" USING btree ("publication_status","session_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ceo_sessions_created_by_idx" ON "ceo_sessions" USING btree ("created_by");--> statement-breakpoint
-- 'Sesiones con CEOs' in the stats panel: published sessions, kept like the other counters (0008).
INSERT INTO "community_counters" ("name", "value") VALUES ('published_sessions', 0);
--> statement-breakpoint
CREATE FUNCTION "count_published_sessions"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := (CASE WHEN TG_OP <> 'DELETE' AND NEW."publication_status" = 'published' THEN 1 ELSE 0 END)
                 - (CASE WHEN TG_OP <> 'INSERT' AND OLD."publication_status" = 'published' THEN 1 ELSE 0 END);
BEGIN
  IF delta <> 0 THEN
    UPDATE "community_counters" SET "value" = "value" + delta WHERE "name" = 'published_sessions';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "ceo_sessions_published_count" AFTER INSERT OR DELETE OR UPDATE OF "publication_status" ON "ceo_sessions"
  FOR EACH ROW EXECUTE FUNCTION "count_published_sessions"();
