-- Issue 38: the dashboard's most commented posts of 7, 30 and 90 days, kept instead of grouping the
-- period's comments on every view (~250,000 comments at ×100 for 30 days, 72,000 posts to rank).
-- post_comment_counts holds, for each period, each post's comments on or after its window's first
-- day (post_comment_windows.since), so the dashboard reads its first five rows by index. Every
-- comment counts, hidden or not, as the count it replaces; a comment's post and date never change.
-- One statement moves the counts per statement of comments (transition tables), as activity_daily.
CREATE FUNCTION count_post_comments_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO post_comment_counts (days, post_id, n)
  SELECT w.days, a.post_id, count(*) FROM added a
  JOIN post_comment_windows w ON a.created_at >= (w.since::timestamp AT TIME ZONE 'Europe/Madrid')
  -- Rows locked in one order by every writer: two statements on the same posts cannot deadlock.
  GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (days, post_id) DO UPDATE SET n = post_comment_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Rows at zero stay until the window moves (the dashboard reads n > 0).
CREATE FUNCTION count_post_comments_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE post_comment_counts c SET n = c.n - r.n
  FROM (
    SELECT w.days, r.post_id, count(*)::int AS n FROM removed r
    JOIN post_comment_windows w ON r.created_at >= (w.since::timestamp AT TIME ZONE 'Europe/Madrid')
    GROUP BY 1, 2
  ) r
  WHERE c.days = r.days AND c.post_id = r.post_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER community_comments_counted_added AFTER INSERT ON community_comments REFERENCING NEW TABLE AS added
  FOR EACH STATEMENT EXECUTE FUNCTION count_post_comments_added();
--> statement-breakpoint
CREATE TRIGGER community_comments_counted_removed AFTER DELETE ON community_comments REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION count_post_comments_removed();
--> statement-breakpoint
-- Moves each window to start `today - (days - 1)`: the comments of the days it leaves come off their
-- posts' counts (those of the days it takes back, moved backwards, go on), read from
-- community_comments_created_idx, a day's comments a day. Writers of comments wait for it
-- (milliseconds, once a day): a comment deleted during the move would come off twice, by its
-- trigger under the old window and by the move.
CREATE FUNCTION move_comment_windows(today date) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  w record;
  first_day date;
BEGIN
  LOCK TABLE community_comments IN SHARE MODE;
  FOR w IN SELECT days, since FROM post_comment_windows ORDER BY days FOR UPDATE LOOP
    first_day := today - (w.days - 1);
    CONTINUE WHEN first_day = w.since;
    INSERT INTO post_comment_counts (days, post_id, n)
    SELECT w.days, post_id, CASE WHEN first_day < w.since THEN count(*) ELSE -count(*) END FROM community_comments
    WHERE created_at >= (least(first_day, w.since)::timestamp AT TIME ZONE 'Europe/Madrid')
      AND created_at < (greatest(first_day, w.since)::timestamp AT TIME ZONE 'Europe/Madrid')
    GROUP BY post_id ORDER BY post_id
    ON CONFLICT (days, post_id) DO UPDATE SET n = post_comment_counts.n + excluded.n;
    DELETE FROM post_comment_counts WHERE days = w.days AND n <= 0;
    UPDATE post_comment_windows SET since = first_day WHERE days = w.days;
  END LOOP;
END $$;
--> statement-breakpoint
-- The periods (filters.ts PERIODS), starting from nothing counted: the first move counts every
-- comment of each window.
INSERT INTO post_comment_windows (days, since) VALUES (7, 'infinity'), (30, 'infinity'), (90, 'infinity');
--> statement-breakpoint
SELECT move_comment_windows((now() AT TIME ZONE 'Europe/Madrid')::date);
