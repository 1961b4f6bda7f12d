-- The dashboard's "API keys" page (issue 26, point 2): who made a key, when it was last used, and its
-- revocation heard by every instance at once.

-- Who made the key: a dashboard user's email, or "command line"; null for keys made before this release.
ALTER TABLE api_keys ADD COLUMN created_by text;
-- When the key was last accepted, written at most about once a minute per key and instance.
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;

-- Every instance caches the keys it has checked (http/auth.ts); a revocation tells them all to forget the
-- key at once, at commit, instead of after their cache's time runs out.
CREATE FUNCTION api_keys_notify_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('till_api_key_revoked', NEW.id);
  RETURN NEW;
END
$$;
CREATE TRIGGER api_keys_notify_revoked AFTER UPDATE OF revoked_at ON api_keys
  FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) EXECUTE FUNCTION api_keys_notify_revoked();
