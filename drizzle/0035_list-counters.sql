-- Issue 38: no list page counts a whole table. Hand-written (drizzle-kit knows neither triggers nor
-- trigram indexes): the totals the console, the directory and the admissions queue show come from
-- community_counters, kept in the transaction that changes what they count, as migration 0008's are.
--
-- The counters a member's profile is in: every member, premium ones by where premium came from, and
-- the directory's (complete and listed). One function, so the backfill and the trigger agree.
CREATE FUNCTION "member_counters"(p "profiles") RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY[
    'members',
    CASE WHEN p."is_premium" THEN 'premium_members' END,
    CASE WHEN p."is_premium" AND p."premium_source" = 'admin' THEN 'premium_admin' END,
    CASE WHEN p."is_premium" AND p."premium_source" = 'subscription' THEN 'premium_subscription' END,
    CASE WHEN p."is_complete" AND p."listed_in_directory" THEN 'directory_members' END
  ], NULL)
$$;
--> statement-breakpoint
INSERT INTO "community_counters" ("name", "value") VALUES
  ('members', 0), ('premium_members', 0), ('premium_admin', 0), ('premium_subscription', 0), ('directory_members', 0),
  ('applications_pending', 0), ('applications_info_requested', 0), ('applications_waitlisted', 0),
  ('applications_approved', 0), ('applications_rejected', 0), ('applications_withdrawn', 0)
ON CONFLICT ("name") DO NOTHING;
--> statement-breakpoint
UPDATE "community_counters" c SET "value" = counted.n
FROM (SELECT name, count(*) AS n FROM "profiles" p CROSS JOIN unnest("member_counters"(p)) name GROUP BY name) counted
WHERE c."name" = counted.name;
--> statement-breakpoint
UPDATE "community_counters" c SET "value" = counted.n
FROM (SELECT 'applications_' || "status" AS name, count(*) AS n FROM "admission_applications" GROUP BY "status") counted
WHERE c."name" = counted.name;
--> statement-breakpoint
-- Every change of a profile (its completeness is a generated column: UPDATE OF cannot name it) moves
-- the counters it enters or leaves; most updates (a name, the unread count) move none and write nothing.
CREATE FUNCTION "count_members"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  before text[] := CASE WHEN TG_OP <> 'INSERT' THEN public."member_counters"(OLD) ELSE '{}'::text[] END;
  after text[] := CASE WHEN TG_OP <> 'DELETE' THEN public."member_counters"(NEW) ELSE '{}'::text[] END;
BEGIN
  IF before IS DISTINCT FROM after THEN
    UPDATE public."community_counters" c SET "value" = c."value" + moved.delta
    FROM (
      SELECT name, sum(delta) AS delta
      FROM (SELECT unnest(after) AS name, 1 AS delta UNION ALL SELECT unnest(before), -1) changes
      GROUP BY name
    ) moved
    WHERE c."name" = moved.name AND moved.delta <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "profiles_members_count" AFTER INSERT OR DELETE OR UPDATE ON "profiles"
  FOR EACH ROW EXECUTE FUNCTION "count_members"();
--> statement-breakpoint
-- The admissions queue's counts by state (its total is their sum).
CREATE FUNCTION "count_applications"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW."status" = OLD."status" THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    UPDATE public."community_counters" SET "value" = "value" - 1 WHERE "name" = 'applications_' || OLD."status";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE public."community_counters" SET "value" = "value" + 1 WHERE "name" = 'applications_' || NEW."status";
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "admission_applications_count" AFTER INSERT OR DELETE OR UPDATE OF "status" ON "admission_applications"
  FOR EACH ROW EXECUTE FUNCTION "count_applications"();
--> statement-breakpoint
-- A search's total counts only the rows that match, found by trigrams (pg_trgm, migration 0032):
-- the directory's and the console's words against the folded names, company and position, and the
-- console's against the e-mail too.
CREATE INDEX "profiles_directory_search_trgm_idx" ON "profiles" USING gin ("directory_search" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "user_email_trgm_idx" ON "user" USING gin (lower("email") gin_trgm_ops);
