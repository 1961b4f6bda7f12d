-- The EVM rail's records (issue 14): each payment's quotes, fixed for its lifetime, and a transaction that can
-- pay one payment only.

-- One quote per payment and option: the exact token amount the buyer must send, the rate it came from and
-- where that rate came from. Written the first time the page asks for the payment's options; never changed.
CREATE TABLE payment_quotes (
  payment_id  text NOT NULL REFERENCES payments (id),
  option_id   text NOT NULL,
  network     text NOT NULL,
  token       text NOT NULL,
  token_minor numeric(78, 0) NOT NULL CHECK (token_minor > 0),
  rate        text NOT NULL,
  rate_source text NOT NULL CHECK (rate_source IN ('peg', 'fixed', 'endpoint')),
  rate_as_of  timestamptz,
  created_at  timestamptz NOT NULL,
  PRIMARY KEY (payment_id, option_id)
);

-- A transaction hash pays at most one payment on its network: submitting one hash for two payments (or a
-- front-runner submitting the buyer's hash first for another) fails on this index, in the transaction that
-- would bind it. Hashes are compared in lower case, as wallets spell them either way.
CREATE UNIQUE INDEX payments_tx_hash_once ON payments (network, lower(tx_hash)) WHERE tx_hash IS NOT NULL;
