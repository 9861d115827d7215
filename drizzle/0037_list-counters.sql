-- Issue 38: no list page counts a whole table. Hand-written (drizzle-kit knows neither triggers nor
-- trigram indexes): the totals the console, the directory and the admissions queue show come from
-- community_counters, kept in the transaction that changes what they count, as migration 0008's are.
--
-- Rows inserted or deleted together move a counter once, by their number (statement triggers
-- with transition tables, as the activity counters of migration 0016): the bench's seed inserts
-- 100,000 posts (×10) in one statement, and as many updates of one counter row in one transaction
-- each walk the row's earlier versions (quadratic). An update, one row at a time, moves it by one.
--
-- The counters a member's profile is in: every member, complete ones (the stats panel), premium
-- ones by where premium came from, and the directory's (complete and listed).
CREATE FUNCTION "member_counters"(is_complete boolean, listed boolean, is_premium boolean, premium_source text) RETURNS text[]
  LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY[
    'members',
    CASE WHEN is_complete THEN 'complete_members' END,
    CASE WHEN is_premium THEN 'premium_members' END,
    CASE WHEN is_premium AND premium_source = 'admin' THEN 'premium_admin' END,
    CASE WHEN is_premium AND premium_source = 'subscription' THEN 'premium_subscription' END,
    CASE WHEN is_complete AND listed THEN 'directory_members' END
  ], NULL)
$$;
--> statement-breakpoint
INSERT INTO "community_counters" ("name", "value") VALUES
  ('members', 0), ('premium_members', 0), ('premium_admin', 0), ('premium_subscription', 0), ('directory_members', 0),
  ('applications_pending', 0), ('applications_info_requested', 0), ('applications_waitlisted', 0),
  ('applications_approved', 0), ('applications_rejected', 0), ('applications_withdrawn', 0)
ON CONFLICT ("name") DO NOTHING;
--> statement-breakpoint
UPDATE "community_counters" c SET "value" = coalesce(counted.n, 0)
FROM (SELECT unnest(ARRAY['members', 'complete_members', 'premium_members', 'premium_admin', 'premium_subscription', 'directory_members']) AS name) names
LEFT JOIN (
  SELECT name, count(*) AS n
  FROM "profiles" p CROSS JOIN unnest("member_counters"(p."is_complete", p."listed_in_directory", p."is_premium", p."premium_source")) name
  GROUP BY name
) counted USING (name)
WHERE c."name" = names.name;
--> statement-breakpoint
UPDATE "community_counters" c SET "value" = counted.n
FROM (SELECT 'applications_' || "status" AS name, count(*) AS n FROM "admission_applications" GROUP BY "status") counted
WHERE c."name" = counted.name;
--> statement-breakpoint
-- Moves each counter by `delta` (names repeated add up); a counter moved by 0 is not written, so
-- a statement that changes nothing counted takes no lock on the counters.
CREATE FUNCTION "move_counters"(names text[], deltas bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE public."community_counters" c SET "value" = c."value" + moved.delta
  FROM (SELECT name, sum(delta) AS delta FROM unnest(names, deltas) AS change(name, delta) GROUP BY name) moved
  WHERE c."name" = moved.name AND moved.delta <> 0
$$;
--> statement-breakpoint
CREATE FUNCTION "count_members_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public."move_counters"(array_agg(name), array_agg(1::bigint))
  FROM added p CROSS JOIN unnest(public."member_counters"(p."is_complete", p."listed_in_directory", p."is_premium", p."premium_source")) name;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "count_members_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public."move_counters"(array_agg(name), array_agg(-1::bigint))
  FROM removed p CROSS JOIN unnest(public."member_counters"(p."is_complete", p."listed_in_directory", p."is_premium", p."premium_source")) name;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every update of a profile (its completeness is a generated column: UPDATE OF cannot name it);
-- most (a name, the unread count) move no counter and write nothing.
CREATE FUNCTION "count_members_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_names text[] := public."member_counters"(OLD."is_complete", OLD."listed_in_directory", OLD."is_premium", OLD."premium_source");
  new_names text[] := public."member_counters"(NEW."is_complete", NEW."listed_in_directory", NEW."is_premium", NEW."premium_source");
BEGIN
  IF old_names IS DISTINCT FROM new_names THEN
    PERFORM public."move_counters"(new_names || old_names,
      array_fill(1::bigint, ARRAY[cardinality(new_names)]) || array_fill(-1::bigint, ARRAY[cardinality(old_names)]));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- complete_members moves with the others now (migration 0008's row trigger counted it alone).
DROP TRIGGER "profiles_complete_count" ON "profiles";
--> statement-breakpoint
DROP FUNCTION "count_complete_members"();
--> statement-breakpoint
CREATE TRIGGER "profiles_members_added" AFTER INSERT ON "profiles" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "count_members_added"();
--> statement-breakpoint
CREATE TRIGGER "profiles_members_removed" AFTER DELETE ON "profiles" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "count_members_removed"();
--> statement-breakpoint
CREATE TRIGGER "profiles_members_changed" AFTER UPDATE ON "profiles"
  FOR EACH ROW EXECUTE FUNCTION "count_members_changed"();
--> statement-breakpoint
-- The admissions queue's counts by state (its total is their sum).
CREATE FUNCTION "count_applications_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public."move_counters"(array_agg('applications_' || "status"), array_agg(1::bigint)) FROM added;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "count_applications_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public."move_counters"(array_agg('applications_' || "status"), array_agg(-1::bigint)) FROM removed;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "count_applications_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."status" <> OLD."status" THEN
    PERFORM public."move_counters"(ARRAY['applications_' || NEW."status", 'applications_' || OLD."status"], ARRAY[1, -1]::bigint[]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "admission_applications_added" AFTER INSERT ON "admission_applications" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "count_applications_added"();
--> statement-breakpoint
CREATE TRIGGER "admission_applications_removed" AFTER DELETE ON "admission_applications" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "count_applications_removed"();
--> statement-breakpoint
CREATE TRIGGER "admission_applications_changed" AFTER UPDATE OF "status" ON "admission_applications"
  FOR EACH ROW EXECUTE FUNCTION "count_applications_changed"();
--> statement-breakpoint
-- The posts (migration 0025) and the published sessions (0009) the same way: inserted or deleted
-- together, counted once; hidden, restored or published one at a time by their row triggers.
CREATE FUNCTION "count_posts_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public."move_counters"(ARRAY['posts'], ARRAY[count(*)]) FROM added WHERE "hidden_at" IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "count_posts_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public."move_counters"(ARRAY['posts'], ARRAY[-count(*)]) FROM removed WHERE "hidden_at" IS NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "community_posts_count" ON "community_posts";
--> statement-breakpoint
CREATE TRIGGER "community_posts_count" AFTER UPDATE OF "hidden_at" ON "community_posts"
  FOR EACH ROW EXECUTE FUNCTION "count_posts"();
--> statement-breakpoint
CREATE TRIGGER "community_posts_count_added" AFTER INSERT ON "community_posts" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "count_posts_added"();
--> statement-breakpoint
CREATE TRIGGER "community_posts_count_removed" AFTER DELETE ON "community_posts" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "count_posts_removed"();
--> statement-breakpoint
CREATE FUNCTION "count_published_sessions_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public."move_counters"(ARRAY['published_sessions'], ARRAY[count(*)]) FROM added WHERE "publication_status" = 'published';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "count_published_sessions_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM public."move_counters"(ARRAY['published_sessions'], ARRAY[-count(*)]) FROM removed WHERE "publication_status" = 'published';
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER "ceo_sessions_published_count" ON "ceo_sessions";
--> statement-breakpoint
CREATE TRIGGER "ceo_sessions_published_count" AFTER UPDATE OF "publication_status" ON "ceo_sessions"
  FOR EACH ROW EXECUTE FUNCTION "count_published_sessions"();
--> statement-breakpoint
CREATE TRIGGER "ceo_sessions_published_added" AFTER INSERT ON "ceo_sessions" REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION "count_published_sessions_added"();
--> statement-breakpoint
CREATE TRIGGER "ceo_sessions_published_removed" AFTER DELETE ON "ceo_sessions" REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION "count_published_sessions_removed"();
--> statement-breakpoint
-- A search's total counts only the rows that match, found by trigrams (pg_trgm, migration 0032):
-- the directory's and the console's words against the folded names, company and position, and the
-- console's against the e-mail too.
CREATE INDEX "profiles_directory_search_trgm_idx" ON "profiles" USING gin ("directory_search" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "user_email_trgm_idx" ON "user" USING gin (lower("email") gin_trgm_ops);
