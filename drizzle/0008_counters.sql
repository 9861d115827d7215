CREATE TABLE "community_counters" (
	"name" text PRIMARY KEY NOT NULL,
	"value" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "unread_notifications" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Counters kept by the database in the transaction that changes what they count: pages read
-- one row instead of counting whole tables (performance issue).
UPDATE "profiles" SET "unread_notifications" = (SELECT count(*) FROM "notifications" n WHERE n."user_id" = "profiles"."user_id" AND NOT n."is_read");
--> statement-breakpoint
INSERT INTO "community_counters" ("name", "value") VALUES
  ('posts', (SELECT count(*) FROM "community_posts")),
  ('complete_members', (SELECT count(*) FROM "profiles" WHERE "is_complete"));
--> statement-breakpoint
CREATE FUNCTION "count_unread_notifications"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD."is_read" THEN
    UPDATE "profiles" SET "unread_notifications" = greatest("unread_notifications" - 1, 0) WHERE "user_id" = OLD."user_id";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NOT NEW."is_read" THEN
    UPDATE "profiles" SET "unread_notifications" = "unread_notifications" + 1 WHERE "user_id" = NEW."user_id";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "notifications_unread_count" AFTER INSERT OR DELETE OR UPDATE OF "is_read", "user_id" ON "notifications"
  FOR EACH ROW EXECUTE FUNCTION "count_unread_notifications"();
--> statement-breakpoint
CREATE FUNCTION "count_posts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "community_counters" SET "value" = "value" + CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END WHERE "name" = 'posts';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "community_posts_count" AFTER INSERT OR DELETE ON "community_posts"
  FOR EACH ROW EXECUTE FUNCTION "count_posts"();
--> statement-breakpoint
CREATE FUNCTION "count_complete_members"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta integer := (CASE WHEN TG_OP <> 'DELETE' AND NEW."is_complete" THEN 1 ELSE 0 END)
                 - (CASE WHEN TG_OP <> 'INSERT' AND OLD."is_complete" THEN 1 ELSE 0 END);
BEGIN
  IF delta <> 0 THEN
    UPDATE "community_counters" SET "value" = "value" + delta WHERE "name" = 'complete_members';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "profiles_complete_count" AFTER INSERT OR DELETE OR UPDATE ON "profiles"
  FOR EACH ROW EXECUTE FUNCTION "count_complete_members"();
