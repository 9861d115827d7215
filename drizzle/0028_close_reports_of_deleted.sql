-- Issue 36: a report closes as 'gone' when what it is about is deleted first (by its author, with the
-- post it was on, with its author's account, or by a moderator), whichever way the row goes: nobody
-- can decide on it any more and the queue counts only what is there. Once per statement (transition
-- tables); TG_ARGV[0] is the kind reported. A member's reports go with their account (account deletion).
CREATE FUNCTION "close_reports_of_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "moderation_reports" SET "status" = 'gone', "closed_at" = now()
  WHERE "kind" = TG_ARGV[0]::"reported_kind" AND "item_id" IN (SELECT "id" FROM "removed") AND "status" = 'open';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "community_posts_reports" AFTER DELETE ON "community_posts"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "close_reports_of_deleted"('post');
--> statement-breakpoint
CREATE TRIGGER "community_comments_reports" AFTER DELETE ON "community_comments"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "close_reports_of_deleted"('comment');
--> statement-breakpoint
CREATE TRIGGER "ceo_session_comments_reports" AFTER DELETE ON "ceo_session_comments"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "close_reports_of_deleted"('session_comment');
--> statement-breakpoint
-- Those already left open on something deleted are removed instead: migrations run in one
-- transaction, and a value added to an enum cannot be written in the transaction that adds it.
DELETE FROM "moderation_reports" r WHERE r."status" = 'open' AND CASE r."kind"::text
  WHEN 'post' THEN NOT EXISTS (SELECT 1 FROM "community_posts" i WHERE i."id" = r."item_id")
  WHEN 'comment' THEN NOT EXISTS (SELECT 1 FROM "community_comments" i WHERE i."id" = r."item_id")
  WHEN 'session_comment' THEN NOT EXISTS (SELECT 1 FROM "ceo_session_comments" i WHERE i."id" = r."item_id")
  ELSE NOT EXISTS (SELECT 1 FROM "user" i WHERE i."id" = r."item_id"::text)
END;
