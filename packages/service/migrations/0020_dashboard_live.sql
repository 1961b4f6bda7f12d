-- The dashboard's Payments page follows new and changed payments live (docs/decisions/0033): every
-- payment made, and every status change, is announced on one channel that each Till instance listens to.
-- NOTIFY is delivered at commit, and only if the transaction commits; the payload names the payment and
-- its owners only, and a listener reads everything else itself.
CREATE FUNCTION payments_notify_listing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('till_payment_listing', json_build_object(
    'id', NEW.id,
    'merchantId', NEW.merchant_id,
    'partnerId', NEW.partner_id
  )::text);
  RETURN NEW;
END
$$;
CREATE TRIGGER payments_notify_listing_insert AFTER INSERT ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_notify_listing();
CREATE TRIGGER payments_notify_listing_status AFTER UPDATE OF status ON payments
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION payments_notify_listing();
