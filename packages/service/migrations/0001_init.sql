-- Till's core schema. Money is integer minor units: bigint for fiat, numeric(78,0) for token amounts
-- (a uint256 has 78 digits). Timestamps are timestamptz and always written by the application clock.

CREATE TABLE partners (
  id             text PRIMARY KEY,
  name           text NOT NULL,
  -- The API version a request gets when it sends no Pay-Version header (spec section 9).
  pinned_version text NOT NULL,
  sandbox        boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL
);
CREATE INDEX partners_sandbox ON partners (created_at, id) WHERE sandbox;

CREATE TABLE api_keys (
  -- The public half of the key (it is part of the key string); the lookup needs no secret.
  id          text PRIMARY KEY,
  partner_id  text NOT NULL REFERENCES partners (id),
  -- SHA-256 of the whole key. The key itself is shown once and never stored.
  secret_hash bytea NOT NULL CHECK (octet_length(secret_hash) = 32),
  label       text,
  created_at  timestamptz NOT NULL,
  revoked_at  timestamptz
);
CREATE INDEX api_keys_partner ON api_keys (partner_id);

CREATE TABLE merchants (
  id         text PRIMARY KEY,
  partner_id text NOT NULL REFERENCES partners (id),
  name       text NOT NULL,
  email      text NOT NULL,
  icon_url   text,
  status     text NOT NULL DEFAULT 'active' CHECK (status IN ('active')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX merchants_partner ON merchants (partner_id, created_at, id);

CREATE TABLE payments (
  id               text PRIMARY KEY,
  merchant_id      text NOT NULL REFERENCES merchants (id),
  -- Copied from the merchant so partner-wide reads need no join.
  partner_id       text NOT NULL REFERENCES partners (id),
  reference_id     text NOT NULL,
  currency         text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  amount_minor     bigint NOT NULL CHECK (amount_minor > 0),
  success_url      text,
  error_url        text,
  redirect_enabled boolean NOT NULL,
  status           text NOT NULL
                   CHECK (status IN ('pending', 'processing', 'succeeded', 'failed', 'expired')),
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL,
  expires_at       timestamptz NOT NULL,
  -- Filled in when the buyer pays; all optional in the listing view (spec section 2.1).
  buyer_account        text,
  buyer_provider_name  text,
  buyer_provider_icon  text,
  network              text,
  tx_hash              text,
  tx_nonce             bigint,
  token_unit           text,
  token_value          numeric(78, 0),
  token_symbol         text,
  token_name           text,
  token_decimals       integer,
  -- Fees and settlement are reported in the payment's own fiat currency.
  fee_minor            bigint,
  fee_percentage       text,
  settled              boolean,
  settlement_minor     bigint,
  settlement_tx_hash   text,
  settled_at           timestamptz,
  CONSTRAINT redirect_needs_both_urls
    CHECK (NOT redirect_enabled OR (success_url IS NOT NULL AND error_url IS NOT NULL)),
  -- Section 2.1: a settled payment always has its amount and transaction; an unsettled one none.
  CONSTRAINT settlement_complete CHECK (
    (settled IS NULL AND settlement_minor IS NULL AND settlement_tx_hash IS NULL AND settled_at IS NULL)
    OR (settled = false AND settlement_minor IS NULL AND settlement_tx_hash IS NULL AND settled_at IS NULL)
    OR (settled = true AND settlement_minor IS NOT NULL AND settlement_tx_hash IS NOT NULL
        AND settled_at IS NOT NULL)
  )
);
-- The referenceId rule: per merchant, at most one payment that is open or succeeded. A retried create
-- meets this index and gets the existing payment; failed and expired ones leave it, so a new payment may
-- be created for the same order.
CREATE UNIQUE INDEX payments_live_reference ON payments (merchant_id, reference_id)
  WHERE status IN ('pending', 'processing', 'succeeded');
-- The expiry sweeper reads only pending payments by deadline.
CREATE INDEX payments_pending_deadline ON payments (expires_at) WHERE status = 'pending';
-- Partner listing, newest first, with a stable tiebreak for cursors.
CREATE INDEX payments_partner_created ON payments (partner_id, created_at DESC, id DESC);
CREATE INDEX payments_merchant_created ON payments (merchant_id, created_at DESC, id DESC);

-- Every status change, including creation (from_status NULL): the audit trail of the lifecycle.
CREATE TABLE payment_transitions (
  id          bigserial PRIMARY KEY,
  payment_id  text NOT NULL REFERENCES payments (id),
  from_status text,
  to_status   text NOT NULL,
  reason      text NOT NULL,
  at          timestamptz NOT NULL
);
CREATE INDEX payment_transitions_payment ON payment_transitions (payment_id, id);

-- The lifecycle rule (spec section 3) enforced by the database itself, whatever code issues the UPDATE:
-- pending -> processing -> succeeded | failed; pending -> failed | expired; terminal states never change.
CREATE FUNCTION payments_guard_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
       (OLD.status = 'pending' AND NEW.status IN ('processing', 'failed', 'expired'))
    OR (OLD.status = 'processing' AND NEW.status IN ('succeeded', 'failed'))
  ) THEN
    RAISE EXCEPTION 'illegal payment transition % -> %', OLD.status, NEW.status
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER payments_guard_transition BEFORE UPDATE OF status ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_guard_transition();
