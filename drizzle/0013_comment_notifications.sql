ALTER TABLE "notifications" DROP CONSTRAINT "notifications_related_comment_id_community_comments_id_fk";
--> statement-breakpoint
-- related_comment_id names a post's or a session's comment, which no foreign key can hold: these
-- triggers do what its ON DELETE CASCADE did, for both kinds, once per statement.
CREATE FUNCTION "delete_comment_notifications"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "notifications" WHERE "related_comment_id" IN (SELECT "id" FROM "removed");
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "community_comments_notifications" AFTER DELETE ON "community_comments"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "delete_comment_notifications"();
--> statement-breakpoint
CREATE TRIGGER "ceo_session_comments_notifications" AFTER DELETE ON "ceo_session_comments"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "delete_comment_notifications"();
