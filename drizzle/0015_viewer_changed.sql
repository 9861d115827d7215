-- Each app process keeps the signed-in member it last looked up (session, profile, roles) for a
-- few seconds (app/platform/auth/viewer-cache.server.ts). Whatever changes what it kept tells
-- every process at once, in the transaction that changes it: a revoked session, a profile (premium,
-- names, the bell's count), a role, the account.
CREATE OR REPLACE FUNCTION notify_viewer_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('viewer_changed', OLD.user_id);
  ELSE
    PERFORM pg_notify('viewer_changed', NEW.user_id);
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_account_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('viewer_changed', OLD.id);
  ELSE
    PERFORM pg_notify('viewer_changed', NEW.id);
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER session_viewer_changed AFTER UPDATE OR DELETE ON "session" FOR EACH ROW EXECUTE FUNCTION notify_viewer_changed();
--> statement-breakpoint
CREATE TRIGGER profiles_viewer_changed AFTER UPDATE OR DELETE ON profiles FOR EACH ROW EXECUTE FUNCTION notify_viewer_changed();
--> statement-breakpoint
CREATE TRIGGER user_roles_viewer_changed AFTER INSERT OR UPDATE OR DELETE ON user_roles FOR EACH ROW EXECUTE FUNCTION notify_viewer_changed();
--> statement-breakpoint
CREATE TRIGGER user_viewer_changed AFTER UPDATE OR DELETE ON "user" FOR EACH ROW EXECUTE FUNCTION notify_account_changed();
