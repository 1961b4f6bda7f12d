-- Every status change is announced to the other Till instances on one PostgreSQL, so each can keep an
-- in-memory status cache exact enough to serve reads (see docs/decisions/0007-status-cache.md). NOTIFY is
-- delivered at commit, and only if the transaction commits.
CREATE FUNCTION payments_notify_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('till_payment_status', json_build_object(
    'id', NEW.id,
    'merchantId', NEW.merchant_id,
    'partnerId', NEW.partner_id,
    'status', NEW.status,
    'expiresAt', (extract(epoch FROM NEW.expires_at) * 1000)::bigint
  )::text);
  RETURN NEW;
END
$$;
CREATE TRIGGER payments_notify_status AFTER UPDATE OF status ON payments
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION payments_notify_status();
