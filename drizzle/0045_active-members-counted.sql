-- Issue 38: the console's active members, kept by triggers instead of counted from
-- member_activity_days on every view (count(distinct) over the period's days: ~500 ms at ten
-- thousand members with a fifth of them in each day). Two kinds of activity_daily:
--   active_last   members whose last day of use is that day: those active since a day are the
--                 sum from that day on (a member active in the period is one whose last day is in it);
--   active_weeks  on each week's Monday, the members who used the community that week.
-- One statement moves them per statement of member_activity_days (transition tables), as the
-- other activity counters (migration 0016). Rows are only inserted (noteActive) and deleted (the
-- member's account going); never updated.
CREATE FUNCTION count_active_members_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each member's days before this statement: theirs in the table, less those it added.
  WITH users AS (SELECT DISTINCT user_id FROM added),
  earlier AS (
    SELECT m.day, m.user_id FROM member_activity_days m JOIN users USING (user_id)
    EXCEPT ALL SELECT day, user_id FROM added
  ),
  lasts AS (
    SELECT a.user_id, a.last, e.last AS before
    FROM (SELECT user_id, max(day) AS last FROM added GROUP BY 1) a
    LEFT JOIN (SELECT user_id, max(day) AS last FROM earlier GROUP BY 1) e USING (user_id)
  ),
  moves AS (
    SELECT before AS day, -1 AS n FROM lasts WHERE before IS NOT NULL AND last > before
    UNION ALL
    SELECT last, 1 FROM lasts WHERE before IS NULL OR last > before
  )
  INSERT INTO activity_daily (day, kind, n)
  SELECT day, 'active_last', sum(n) FROM moves GROUP BY day
  ON CONFLICT (day, kind) DO UPDATE SET n = activity_daily.n + excluded.n;

  WITH users AS (SELECT DISTINCT user_id FROM added),
  earlier AS (
    SELECT m.day, m.user_id FROM member_activity_days m JOIN users USING (user_id)
    EXCEPT ALL SELECT day, user_id FROM added
  ),
  new_weeks AS (
    SELECT DISTINCT user_id, date_trunc('week', day)::date AS week FROM added
    EXCEPT SELECT DISTINCT user_id, date_trunc('week', day)::date FROM earlier
  )
  INSERT INTO activity_daily (day, kind, n)
  SELECT week, 'active_weeks', count(*) FROM new_weeks GROUP BY week
  ON CONFLICT (day, kind) DO UPDATE SET n = activity_daily.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION count_active_members_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- What each member keeps after this statement is what is left in the table.
  WITH users AS (SELECT DISTINCT user_id FROM removed),
  kept AS (SELECT m.day, m.user_id FROM member_activity_days m JOIN users USING (user_id)),
  lasts AS (
    SELECT r.user_id, r.last AS removed_last, k.last AS kept_last
    FROM (SELECT user_id, max(day) AS last FROM removed GROUP BY 1) r
    LEFT JOIN (SELECT user_id, max(day) AS last FROM kept GROUP BY 1) k USING (user_id)
  ),
  moves AS (
    SELECT removed_last AS day, -1 AS n FROM lasts WHERE kept_last IS NULL OR removed_last > kept_last
    UNION ALL
    SELECT kept_last, 1 FROM lasts WHERE kept_last IS NOT NULL AND removed_last > kept_last
  )
  -- A member's last day may become one that no other member's is: upserted.
  INSERT INTO activity_daily (day, kind, n)
  SELECT day, 'active_last', sum(n) FROM moves GROUP BY day
  ON CONFLICT (day, kind) DO UPDATE SET n = greatest(activity_daily.n + excluded.n, 0);

  WITH users AS (SELECT DISTINCT user_id FROM removed),
  gone_weeks AS (
    SELECT DISTINCT user_id, date_trunc('week', day)::date AS week FROM removed
    EXCEPT SELECT DISTINCT m.user_id, date_trunc('week', m.day)::date FROM member_activity_days m JOIN users USING (user_id)
  )
  UPDATE activity_daily a SET n = greatest(a.n - gone.n, 0)
  FROM (SELECT week, count(*)::int AS n FROM gone_weeks GROUP BY week) gone
  WHERE a.day = gone.week AND a.kind = 'active_weeks';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER member_activity_days_added AFTER INSERT ON member_activity_days REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_active_members_added();
--> statement-breakpoint
CREATE TRIGGER member_activity_days_removed AFTER DELETE ON member_activity_days REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_active_members_removed();
--> statement-breakpoint
INSERT INTO activity_daily (day, kind, n)
SELECT last, 'active_last', count(*) FROM (SELECT user_id, max(day) AS last FROM member_activity_days GROUP BY 1) l GROUP BY 1;
--> statement-breakpoint
INSERT INTO activity_daily (day, kind, n)
SELECT date_trunc('week', day)::date, 'active_weeks', count(DISTINCT user_id) FROM member_activity_days GROUP BY 1;
