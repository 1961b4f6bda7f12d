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

-- The cells a payment counts in (NULL: any value): per partner, its status or any x its token or any x its
-- network or any; per merchant, its status or any. The one definition, for the compactor and the rebuild.
CREATE FUNCTION customer_cells_of(m text, s text, t text, n text)
  RETURNS TABLE (merchant_id text, status text, token_symbol text, network text)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  VALUES (NULL::text, s, t, n), (NULL, s, t, NULL), (NULL, s, NULL, n), (NULL, s, NULL, NULL), (NULL, NULL, t, n),
         (NULL, NULL, t, NULL), (NULL, NULL, NULL, n), (NULL, NULL, NULL, NULL), (m, s, NULL, NULL), (m, NULL, NULL, NULL)
$$;

-- Cells are joined on these keys, never with IS NOT DISTINCT FROM: that cannot be hashed, and a nested loop
-- over every cell of a partner made a compaction take minutes. chr(1) is no merchant, status, symbol or network.
CREATE FUNCTION customer_cell_key(m text, s text, t text, n text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN concat_ws(chr(2), coalesce(m, chr(1)), coalesce(s, chr(1)), coalesce(t, chr(1)), coalesce(n, chr(1)));

-- Builds every set from the payments in bulk: this migration's backfill, and the bench after its bulk load.
CREATE FUNCTION rebuild_customer_sets() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM customer_members;
  DELETE FROM customer_cells;
  DELETE FROM customer_deltas;
  CREATE TEMPORARY TABLE customer_expanded ON COMMIT DROP AS
  SELECT DISTINCT p.partner_id, c.merchant_id, c.status, c.token_symbol, c.network, p.buyer_key
    FROM payments p
   CROSS JOIN LATERAL customer_cells_of(p.merchant_id, p.status, coalesce(p.token_symbol, ''), coalesce(p.network, '')) c
   WHERE p.buyer_key IS NOT NULL AND p.status IN ('succeeded', 'failed', 'expired');
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

SELECT rebuild_customer_sets();
