CREATE TABLE "member_activity_days" (
	"day" date NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "member_activity_days_day_user_id_pk" PRIMARY KEY("day","user_id")
);
--> statement-breakpoint
CREATE TABLE "app_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_daily" (
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "activity_daily_day_kind_pk" PRIMARY KEY("day","kind")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"status" text NOT NULL,
	"plan" "membership_plan",
	"monthly_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"current_period_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"canceled_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ceo_session_daily_views" (
	"session_id" uuid NOT NULL,
	"day" date NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "ceo_session_daily_views_session_id_day_pk" PRIMARY KEY("session_id","day")
);
--> statement-breakpoint
ALTER TABLE "member_activity_days" ADD CONSTRAINT "member_activity_days_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ceo_session_daily_views" ADD CONSTRAINT "ceo_session_daily_views_session_id_ceo_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."ceo_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscriptions_user_idx" ON "subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "subscriptions_status_idx" ON "subscriptions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "ceo_session_daily_views_day_idx" ON "ceo_session_daily_views" USING btree ("day");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_user_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "jobs_name_finished_idx" ON "jobs" USING btree ("name","finished_at");--> statement-breakpoint
CREATE INDEX "community_comments_created_idx" ON "community_comments" USING btree ("created_at");--> statement-breakpoint
-- Every process keeps the settings (app/platform/settings/settings.server.ts); a change tells all
-- of them in the transaction that makes it.
CREATE OR REPLACE FUNCTION notify_settings_changed() RETURNS trigger AS $$
BEGIN
  -- A non-empty payload: the PostgreSQL listener passes on only notifications that carry one.
  PERFORM pg_notify('settings_changed', 'app_settings');
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER app_settings_changed AFTER INSERT OR UPDATE OR DELETE ON app_settings FOR EACH STATEMENT EXECUTE FUNCTION notify_settings_changed();
--> statement-breakpoint
-- The console's daily activity (app/features/admin/schema.ts), kept in the transaction that adds or
-- removes what it counts: one upsert per statement and day (transition tables), so a bulk insert
-- costs one counter write per day, not per row. Days are the community's (Europe/Madrid, as
-- DEFAULT_TIME_ZONE). TG_ARGV[0] is the kind counted.
CREATE FUNCTION count_activity_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_daily (day, kind, n)
  SELECT (created_at AT TIME ZONE 'Europe/Madrid')::date, TG_ARGV[0], count(*) FROM added GROUP BY 1
  ON CONFLICT (day, kind) DO UPDATE SET n = activity_daily.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION count_activity_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE activity_daily a SET n = greatest(a.n - removed_by_day.n, 0)
  FROM (SELECT (created_at AT TIME ZONE 'Europe/Madrid')::date AS day, count(*)::int AS n FROM removed GROUP BY 1) removed_by_day
  WHERE a.day = removed_by_day.day AND a.kind = TG_ARGV[0];
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER community_posts_activity_added AFTER INSERT ON community_posts REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_added('posts');
--> statement-breakpoint
CREATE TRIGGER community_posts_activity_removed AFTER DELETE ON community_posts REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_removed('posts');
--> statement-breakpoint
CREATE TRIGGER community_comments_activity_added AFTER INSERT ON community_comments REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_added('comments');
--> statement-breakpoint
CREATE TRIGGER community_comments_activity_removed AFTER DELETE ON community_comments REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_removed('comments');
--> statement-breakpoint
CREATE TRIGGER ceo_session_comments_activity_added AFTER INSERT ON ceo_session_comments REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_added('comments');
--> statement-breakpoint
CREATE TRIGGER ceo_session_comments_activity_removed AFTER DELETE ON ceo_session_comments REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_removed('comments');
--> statement-breakpoint
CREATE TRIGGER post_likes_activity_added AFTER INSERT ON post_likes REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_added('likes');
--> statement-breakpoint
CREATE TRIGGER post_likes_activity_removed AFTER DELETE ON post_likes REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_removed('likes');
--> statement-breakpoint
CREATE TRIGGER comment_likes_activity_added AFTER INSERT ON comment_likes REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_added('likes');
--> statement-breakpoint
CREATE TRIGGER comment_likes_activity_removed AFTER DELETE ON comment_likes REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_removed('likes');
--> statement-breakpoint
CREATE TRIGGER ceo_session_likes_activity_added AFTER INSERT ON ceo_session_likes REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_added('likes');
--> statement-breakpoint
CREATE TRIGGER ceo_session_likes_activity_removed AFTER DELETE ON ceo_session_likes REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_activity_removed('likes');
--> statement-breakpoint
-- A registration is counted on the day it was made (registered_at).
CREATE FUNCTION count_registrations_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_daily (day, kind, n)
  SELECT (registered_at AT TIME ZONE 'Europe/Madrid')::date, 'registrations', count(*) FROM added GROUP BY 1
  ON CONFLICT (day, kind) DO UPDATE SET n = activity_daily.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION count_registrations_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE activity_daily a SET n = greatest(a.n - removed_by_day.n, 0)
  FROM (SELECT (registered_at AT TIME ZONE 'Europe/Madrid')::date AS day, count(*)::int AS n FROM removed GROUP BY 1) removed_by_day
  WHERE a.day = removed_by_day.day AND a.kind = 'registrations';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER event_attendees_activity_added AFTER INSERT ON event_attendees REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_registrations_added();
--> statement-breakpoint
CREATE TRIGGER event_attendees_activity_removed AFTER DELETE ON event_attendees REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_registrations_removed();
--> statement-breakpoint
-- Views are already counted by day and session (ceo_session_daily_views): their day's total follows.
CREATE FUNCTION count_views() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_daily (day, kind, n)
  VALUES (NEW.day, 'views', NEW.views - CASE WHEN TG_OP = 'UPDATE' THEN OLD.views ELSE 0 END)
  ON CONFLICT (day, kind) DO UPDATE SET n = activity_daily.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ceo_session_daily_views_activity AFTER INSERT OR UPDATE OF views ON ceo_session_daily_views
  FOR EACH ROW EXECUTE FUNCTION count_views();
--> statement-breakpoint
-- What happened before this migration, counted once.
INSERT INTO activity_daily (day, kind, n)
SELECT day, kind, sum(n)::int FROM (
  SELECT (created_at AT TIME ZONE 'Europe/Madrid')::date AS day, 'posts' AS kind, count(*) AS n FROM community_posts GROUP BY 1
  UNION ALL SELECT (created_at AT TIME ZONE 'Europe/Madrid')::date, 'comments', count(*) FROM community_comments GROUP BY 1
  UNION ALL SELECT (created_at AT TIME ZONE 'Europe/Madrid')::date, 'comments', count(*) FROM ceo_session_comments GROUP BY 1
  UNION ALL SELECT (created_at AT TIME ZONE 'Europe/Madrid')::date, 'likes', count(*) FROM post_likes GROUP BY 1
  UNION ALL SELECT (created_at AT TIME ZONE 'Europe/Madrid')::date, 'likes', count(*) FROM comment_likes GROUP BY 1
  UNION ALL SELECT (created_at AT TIME ZONE 'Europe/Madrid')::date, 'likes', count(*) FROM ceo_session_likes GROUP BY 1
  UNION ALL SELECT (registered_at AT TIME ZONE 'Europe/Madrid')::date, 'registrations', count(*) FROM event_attendees GROUP BY 1
) counted GROUP BY day, kind;
