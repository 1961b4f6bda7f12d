-- The partner listing (spec 4.1): its filters, both sort orders, and the wallet app that paid.

-- Substring search on referenceId uses trigram indexes; both extensions are trusted (PostgreSQL 13+), so
-- a database owner without superuser rights may create them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- A wallet app registered with a partner: its id is the public App-Id of spec section 5.
CREATE TABLE apps (
  id         text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  name       text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX apps_partner ON apps (partner_id, created_at, id);

-- The currency's ISO 4217 exponent, written with the payment, so that amounts compare in the currency's
-- standard unit (sortBy=amount) and revenue converts without a lookup table in SQL.
ALTER TABLE payments ADD COLUMN fiat_exponent smallint;
UPDATE payments SET fiat_exponent = CASE
  WHEN currency IN ('BIF','CLP','DJF','GNF','ISK','JPY','KMF','KRW','PYG','RWF','UGX','UYI','VND','VUV','XAF','XOF','XPF') THEN 0
  WHEN currency IN ('BHD','IQD','JOD','KWD','LYD','OMR','TND') THEN 3
  WHEN currency IN ('CLF','UYW') THEN 4
  ELSE 2 END;
ALTER TABLE payments ALTER COLUMN fiat_exponent SET NOT NULL,
  ADD CONSTRAINT fiat_exponent_range CHECK (fiat_exponent BETWEEN 0 AND 4);
-- Exact: a power of ten divides a numeric without rounding.
ALTER TABLE payments ADD COLUMN amount_major numeric GENERATED ALWAYS AS (amount_minor / (10::numeric ^ fiat_exponent)) STORED;

-- Who paid, when known: the wallet app (App-Id) and that app's client (Client-Id).
ALTER TABLE payments ADD COLUMN wallet_app_id text REFERENCES apps (id),
  ADD COLUMN wallet_client_id text,
  ADD CONSTRAINT wallet_client_needs_app CHECK (wallet_client_id IS NULL OR wallet_app_id IS NOT NULL);

-- Keyset pages: every list order ends with id, so equal timestamps or amounts never lose or repeat a row.
CREATE INDEX payments_partner_amount ON payments (partner_id, amount_major, id);
CREATE INDEX payments_merchant_amount ON payments (merchant_id, amount_major, id);
CREATE INDEX payments_wallet_created ON payments (wallet_app_id, wallet_client_id, created_at, id) WHERE wallet_app_id IS NOT NULL;
CREATE INDEX payments_reference_trgm ON payments USING gin (reference_id gin_trgm_ops);

-- Buyers as small integers: counting distinct integers is several times cheaper than distinct text, and
-- totalCustomers counts distinct buyers. One row per CAIP-10 account (per partner: the same address is
-- another partner's customer too). The trigger fills buyer_key whenever buyer_account is written, so no
-- code path can forget it.
CREATE TABLE buyers (
  key        bigserial PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  account    text NOT NULL,
  UNIQUE (partner_id, account)
);
ALTER TABLE payments ADD COLUMN buyer_key bigint REFERENCES buyers (key);

CREATE FUNCTION payments_buyer_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.buyer_account IS NULL THEN
    NEW.buyer_key := NULL;
    RETURN NEW;
  END IF;
  INSERT INTO buyers (partner_id, account) VALUES (NEW.partner_id, NEW.buyer_account)
    ON CONFLICT (partner_id, account) DO NOTHING;
  SELECT key INTO NEW.buyer_key FROM buyers WHERE partner_id = NEW.partner_id AND account = NEW.buyer_account;
  RETURN NEW;
END
$$;
CREATE TRIGGER payments_buyer_key BEFORE INSERT OR UPDATE OF buyer_account ON payments
  FOR EACH ROW WHEN (NEW.buyer_account IS NOT NULL) EXECUTE FUNCTION payments_buyer_key();
UPDATE payments SET buyer_account = buyer_account WHERE buyer_account IS NOT NULL;

-- Listing statistics (docs/decisions/0017-listing-stats.md). Counts and sums per UTC day and per value of
-- every filter the rollups serve, kept exact in the transaction of each change:
--   * every insert, and every change of status, token or network, appends a signed delta row (-1 for the
--     old cell, +1 for the new one): an append never waits on another writer's lock;
--   * a compactor folds deltas into payment_stats and payment_stats_partner in one transaction;
--   * readers add the rollups and the deltas not yet folded, so a read is exact at any moment.
-- '' stands for "none" in token_symbol and network, as primary key columns cannot be null.
CREATE TABLE payment_stat_deltas (
  id           bigserial PRIMARY KEY,
  partner_id   text NOT NULL,
  merchant_id  text NOT NULL,
  day          date NOT NULL,
  status       text NOT NULL,
  currency     text NOT NULL,
  token_symbol text NOT NULL,
  network      text NOT NULL,
  payments     integer NOT NULL,
  amount_minor bigint NOT NULL
);
CREATE INDEX payment_stat_deltas_partner ON payment_stat_deltas (partner_id, day);
CREATE INDEX payment_stat_deltas_merchant ON payment_stat_deltas (merchant_id, day);

CREATE TABLE payment_stats (
  merchant_id  text NOT NULL,
  day          date NOT NULL,
  status       text NOT NULL,
  currency     text NOT NULL,
  token_symbol text NOT NULL,
  network      text NOT NULL,
  partner_id   text NOT NULL,
  payments     bigint NOT NULL,
  amount_minor numeric NOT NULL,
  PRIMARY KEY (merchant_id, day, status, currency, token_symbol, network)
);

-- The same without the merchant: a partner-wide query reads one row per day and cell, not one per merchant.
CREATE TABLE payment_stats_partner (
  partner_id   text NOT NULL,
  day          date NOT NULL,
  status       text NOT NULL,
  currency     text NOT NULL,
  token_symbol text NOT NULL,
  network      text NOT NULL,
  payments     bigint NOT NULL,
  amount_minor numeric NOT NULL,
  PRIMARY KEY (partner_id, day, status, currency, token_symbol, network)
);

CREATE FUNCTION payments_stat_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO payment_stat_deltas (partner_id, merchant_id, day, status, currency, token_symbol, network, payments, amount_minor)
    VALUES (OLD.partner_id, OLD.merchant_id, (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.status, OLD.currency,
            coalesce(OLD.token_symbol, ''), coalesce(OLD.network, ''), -1, -OLD.amount_minor);
  END IF;
  INSERT INTO payment_stat_deltas (partner_id, merchant_id, day, status, currency, token_symbol, network, payments, amount_minor)
  VALUES (NEW.partner_id, NEW.merchant_id, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.status, NEW.currency,
          coalesce(NEW.token_symbol, ''), coalesce(NEW.network, ''), 1, NEW.amount_minor);
  RETURN NULL;
END
$$;
CREATE TRIGGER payments_stat_insert AFTER INSERT ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_stat_delta();
CREATE TRIGGER payments_stat_update AFTER UPDATE OF status, token_symbol, network ON payments
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.token_symbol IS DISTINCT FROM NEW.token_symbol
                     OR OLD.network IS DISTINCT FROM NEW.network)
  EXECUTE FUNCTION payments_stat_delta();

-- Payments that exist before this migration enter the rollups directly.
INSERT INTO payment_stats (merchant_id, day, status, currency, token_symbol, network, partner_id, payments, amount_minor)
SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, coalesce(token_symbol, ''), coalesce(network, ''),
       partner_id, count(*), sum(amount_minor)
  FROM payments GROUP BY 1, 2, 3, 4, 5, 6, 7;
INSERT INTO payment_stats_partner (partner_id, day, status, currency, token_symbol, network, payments, amount_minor)
SELECT partner_id, day, status, currency, token_symbol, network, sum(payments), sum(amount_minor)
  FROM payment_stats GROUP BY 1, 2, 3, 4, 5, 6;

-- Distinct buyers are counted from the payments themselves (a distinct count does not add up across
-- days); these narrow indexes over paid payments let that count read the index alone.
CREATE INDEX payments_partner_buyers ON payments (partner_id, created_at)
  INCLUDE (buyer_key, merchant_id, status, token_symbol, network) WHERE buyer_key IS NOT NULL;
-- partner_id too: a partner's query names its merchants, and checking their owner must not cost a heap fetch.
CREATE INDEX payments_merchant_buyers ON payments (merchant_id, created_at)
  INCLUDE (buyer_key, partner_id, status, token_symbol, network) WHERE buyer_key IS NOT NULL;
