-- Distinct customers of the listing's statistics without counting payments (docs/decisions/0017).
--
-- A distinct count does not add up across days or cells, so it is kept per cell as a set: the buyers of a
-- partner's payments in that cell, and their number. A cell fixes some filters and leaves the others open
-- (NULL: any value): per partner, every combination of {status, any} x {token, any} x {network, any}; per
-- merchant, {status, any}. Only payments in a terminal status enter the sets. Their status, token,
-- network and buyer never change again, so a buyer once in a cell stays there: the sets only grow, and a
-- counter per cell is exact. Payments still open (pending, processing) are few and read directly.
--
-- As for the other rollups, a trigger appends a delta in the transaction that ends a payment, and the
-- compactor folds deltas into the sets; readers add the deltas not folded yet.
CREATE TABLE customer_cells (
  id           bigserial PRIMARY KEY,
  partner_id   text NOT NULL,
  merchant_id  text,
  status       text,
  token_symbol text,
  network      text,
  customers    bigint NOT NULL DEFAULT 0,
  CONSTRAINT customer_cells_key UNIQUE NULLS NOT DISTINCT (partner_id, merchant_id, status, token_symbol, network)
);

CREATE TABLE customer_members (
  cell_id   bigint NOT NULL REFERENCES customer_cells (id),
  buyer_key bigint NOT NULL,
  PRIMARY KEY (cell_id, buyer_key)
);

CREATE TABLE customer_deltas (
  id           bigserial PRIMARY KEY,
  partner_id   text NOT NULL,
  merchant_id  text NOT NULL,
  status       text NOT NULL,
  token_symbol text NOT NULL,
  network      text NOT NULL,
  buyer_key    bigint NOT NULL
);
CREATE INDEX customer_deltas_partner ON customer_deltas (partner_id);

CREATE FUNCTION payments_customer_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO customer_deltas (partner_id, merchant_id, status, token_symbol, network, buyer_key)
  VALUES (NEW.partner_id, NEW.merchant_id, NEW.status, coalesce(NEW.token_symbol, ''), coalesce(NEW.network, ''), NEW.buyer_key);
  RETURN NULL;
END
$$;
CREATE TRIGGER payments_customer_insert AFTER INSERT ON payments
  FOR EACH ROW WHEN (NEW.buyer_key IS NOT NULL AND NEW.status IN ('succeeded', 'failed', 'expired'))
  EXECUTE FUNCTION payments_customer_delta();
CREATE TRIGGER payments_customer_update AFTER UPDATE OF status ON payments
  FOR EACH ROW WHEN (NEW.buyer_key IS NOT NULL AND NEW.status IN ('succeeded', 'failed', 'expired')
                     AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION payments_customer_delta();

-- Open payments with a buyer: what the sets do not hold yet.
CREATE INDEX payments_open_buyers ON payments (partner_id, merchant_id)
  INCLUDE (buyer_key, status, token_symbol, network)
  WHERE buyer_key IS NOT NULL AND status IN ('pending', 'processing');

-- Ended payments that exist before this migration enter through the deltas, folded by the first compaction.
INSERT INTO customer_deltas (partner_id, merchant_id, status, token_symbol, network, buyer_key)
SELECT partner_id, merchant_id, status, coalesce(token_symbol, ''), coalesce(network, ''), buyer_key
  FROM payments WHERE buyer_key IS NOT NULL AND status IN ('succeeded', 'failed', 'expired');
