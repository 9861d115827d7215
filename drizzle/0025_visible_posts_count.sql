-- Issue 28: the stats panel counts the posts members can see. A post hidden by moderation leaves
-- the count and comes back with it when restored; deleting a hidden post does not count it twice.
CREATE OR REPLACE FUNCTION "count_posts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "community_counters" SET "value" = "value" + CASE
    WHEN TG_OP = 'INSERT' THEN CASE WHEN NEW."hidden_at" IS NULL THEN 1 ELSE 0 END
    WHEN TG_OP = 'DELETE' THEN CASE WHEN OLD."hidden_at" IS NULL THEN -1 ELSE 0 END
    ELSE CASE WHEN OLD."hidden_at" IS NULL AND NEW."hidden_at" IS NOT NULL THEN -1
              WHEN OLD."hidden_at" IS NOT NULL AND NEW."hidden_at" IS NULL THEN 1 ELSE 0 END
  END WHERE "name" = 'posts';
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "community_posts_count" ON "community_posts";
--> statement-breakpoint
CREATE TRIGGER "community_posts_count" AFTER INSERT OR DELETE OR UPDATE OF "hidden_at" ON "community_posts"
  FOR EACH ROW EXECUTE FUNCTION "count_posts"();
