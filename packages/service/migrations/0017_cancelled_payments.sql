-- Cancel (issue 24, point 1): the merchant calls off a pending payment nobody has paid. `cancelled` joins the
-- lifecycle as a final status reached from `pending` only (@till/contract statuses.ts); every rule below that
-- names statuses gets it, as db/status-rules.int.test.ts checks against the contract.

ALTER TABLE payments DROP CONSTRAINT payments_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_status_check
  CHECK (status IN ('pending', 'processing', 'succeeded', 'failed', 'expired', 'cancelled'));

CREATE OR REPLACE FUNCTION payments_guard_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
       (OLD.status = 'pending' AND NEW.status IN ('processing', 'failed', 'expired', 'cancelled'))
    OR (OLD.status = 'processing' AND NEW.status IN ('succeeded', 'failed'))
  ) THEN
    RAISE EXCEPTION 'illegal payment transition % -> %', OLD.status, NEW.status
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;

-- A final payment's buyer joins the customer sets. A cancelled payment was never paid, so it has no buyer;
-- the rule still names every final status, so that it stays one rule.
DROP TRIGGER payments_customer_insert ON payments;
DROP TRIGGER payments_customer_update ON payments;
CREATE TRIGGER payments_customer_insert AFTER INSERT ON payments
  FOR EACH ROW WHEN (NEW.buyer_key IS NOT NULL AND NEW.status IN ('succeeded', 'failed', 'expired', 'cancelled'))
  EXECUTE FUNCTION payments_customer_delta();
CREATE TRIGGER payments_customer_update AFTER UPDATE OF status ON payments
  FOR EACH ROW WHEN (NEW.buyer_key IS NOT NULL AND NEW.status IN ('succeeded', 'failed', 'expired', 'cancelled')
                     AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION payments_customer_delta();

CREATE OR REPLACE FUNCTION rebuild_customer_sets() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM customer_members;
  DELETE FROM customer_cells;
  DELETE FROM customer_deltas;
  CREATE TEMPORARY TABLE customer_expanded ON COMMIT DROP AS
  SELECT DISTINCT p.partner_id, c.merchant_id, c.status, c.token_symbol, c.network, p.buyer_key
    FROM payments p
   CROSS JOIN LATERAL customer_cells_of(p.merchant_id, p.status, coalesce(p.token_symbol, ''), coalesce(p.network, '')) c
   WHERE p.buyer_key IS NOT NULL AND p.status IN ('succeeded', 'failed', 'expired', 'cancelled');
  INSERT INTO customer_cells (partner_id, merchant_id, status, token_symbol, network, customers)
  SELECT partner_id, merchant_id, status, token_symbol, network, count(*) FROM customer_expanded GROUP BY 1, 2, 3, 4, 5;
  ANALYZE customer_cells;
  INSERT INTO customer_members (cell_id, buyer_key)
  SELECT cc.id, e.buyer_key
    FROM customer_expanded e
    JOIN customer_cells cc
      ON cc.partner_id = e.partner_id
     AND customer_cell_key(cc.merchant_id, cc.status, cc.token_symbol, cc.network)
       = customer_cell_key(e.merchant_id, e.status, e.token_symbol, e.network);
  DROP TABLE customer_expanded;
END
$$;

-- The webhook event payment.cancelled, written in the cancel's own commit as every status event is.
DROP TRIGGER payments_webhook_event ON payments;
CREATE TRIGGER payments_webhook_event AFTER UPDATE OF status ON payments
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
                     AND NEW.status IN ('processing', 'succeeded', 'failed', 'expired', 'cancelled'))
  EXECUTE FUNCTION payments_webhook_event();

-- Endpoints created for every event (none named) had each event written out: they get the new one too.
UPDATE webhook_endpoints SET events = events || ARRAY['payment.cancelled']
 WHERE events @> ARRAY['payment.processing', 'payment.succeeded', 'payment.failed', 'payment.expired', 'transfer.unapplied'];
