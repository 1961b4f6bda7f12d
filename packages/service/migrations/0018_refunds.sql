-- Refunds (issue 24, point 2): non-custodial. The buyer (or the merchant) names the destination, the
-- merchant's own wallet pays, and Till follows the transfer on chain as it follows a payment's
-- (docs/decisions/0031-refunds-claimed-and-paid.md). The statuses and their transitions are the contract's
-- (REFUND_STATUSES, REFUND_TRANSITIONS in @till/contract statuses.ts); db/status-rules.int.test.ts checks them.
CREATE TABLE refunds (
  id             text PRIMARY KEY,
  -- Creation order, which instants alone do not give (two refunds may share one).
  seq            bigserial NOT NULL,
  partner_id     text NOT NULL REFERENCES partners (id),
  merchant_id    text NOT NULL REFERENCES merchants (id),
  -- What is refunded: (part of) a succeeded payment, or an unapplied transfer whole (which may name a payment).
  payment_id     text REFERENCES payments (id),
  unapplied_network text,
  unapplied_tx_hash text,
  -- Which rail verifies its transfer: an EVM network's, or the sandbox's test wallets.
  rail           text NOT NULL CHECK (rail IN ('evm', 'sandbox')),
  -- In the payment's fiat minor units; null for an unapplied transfer, refunded in its token alone.
  currency       text,
  amount_minor   bigint CHECK (amount_minor > 0),
  network        text NOT NULL,
  token_unit     text NOT NULL,
  token_symbol   text NOT NULL,
  token_name     text NOT NULL,
  token_decimals integer NOT NULL,
  token_amount   numeric(78, 0) NOT NULL CHECK (token_amount > 0),
  status         text NOT NULL CHECK (status IN ('awaiting_destination', 'ready', 'submitted', 'succeeded', 'failed', 'cancelled')),
  reason         text,
  -- CAIP-10, checksummed; null until the buyer names it (or never, for one marked refunded on the merchant's word).
  destination    text,
  -- 0x and 32 hex digits: what the refund transfer carries after its arguments, as a payment transfer does.
  reference      text NOT NULL UNIQUE CHECK (reference ~ '^0x[0-9a-f]{32}$'),
  -- The links' lifetimes: the buyer's claim link from the refund's creation, the merchant's pay link from
  -- when the refund got its destination.
  claim_expires_at timestamptz NOT NULL,
  pay_expires_at timestamptz NOT NULL,
  -- Its transfer, once known, in lower case, and who sent it; how it was tied to the refund.
  tx_hash        text CHECK (tx_hash = lower(tx_hash)),
  tx_from        text,
  matched_by     text CHECK (matched_by IN ('reference', 'amount', 'merchant')),
  -- Following the transfer to its confirmations, as evm_watches does for payments.
  block_number   bigint,
  unmined_since  timestamptz,
  next_check_at  timestamptz,
  lease_until    timestamptz,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL,
  CONSTRAINT refunds_source CHECK (
    (payment_id IS NOT NULL AND unapplied_tx_hash IS NULL AND currency IS NOT NULL AND amount_minor IS NOT NULL)
    OR (unapplied_tx_hash IS NOT NULL AND unapplied_network IS NOT NULL AND amount_minor IS NULL)
  ),
  CONSTRAINT refunds_unapplied FOREIGN KEY (unapplied_network, unapplied_tx_hash)
    REFERENCES evm_unapplied_transfers (network, tx_hash),
  CONSTRAINT refunds_destination_known CHECK (status NOT IN ('ready', 'submitted', 'failed') OR destination IS NOT NULL),
  CONSTRAINT refunds_transaction_known CHECK (status NOT IN ('submitted', 'failed') OR tx_hash IS NOT NULL)
);

-- A payment's refunds, oldest first (GET /v1/refunds?paymentId=…).
CREATE INDEX refunds_payment ON refunds (payment_id, seq) WHERE payment_id IS NOT NULL;
-- An unapplied transfer's refunds, oldest first (GET /v1/refunds?unappliedTransferId=…).
CREATE INDEX refunds_unapplied ON refunds (unapplied_network, unapplied_tx_hash, seq) WHERE unapplied_tx_hash IS NOT NULL;
-- An unapplied transfer is refunded whole, so at most once at a time: a refund that failed or was cancelled
-- leaves it to be refunded again.
CREATE UNIQUE INDEX refunds_unapplied_holding ON refunds (unapplied_network, unapplied_tx_hash)
  WHERE unapplied_tx_hash IS NOT NULL AND status IN ('awaiting_destination', 'ready', 'submitted', 'succeeded');
-- A transaction pays one refund.
CREATE UNIQUE INDEX refunds_transaction ON refunds (network, tx_hash) WHERE tx_hash IS NOT NULL;
-- The follower's due list, and the chain watcher's refunds waiting to be paid on a network.
CREATE INDEX refunds_due ON refunds (next_check_at) WHERE status = 'submitted';
CREATE INDEX refunds_awaiting_transfer ON refunds (network)
  WHERE status = 'ready' OR (status = 'submitted' AND unmined_since IS NOT NULL);

-- What a payment's refunds hold (all but failed and cancelled ones) and what they gave back (succeeded ones),
-- kept beside the payment by the trigger below. The CHECK is the rule itself: whatever runs concurrently,
-- the refunds of a payment never add up to more than was paid.
ALTER TABLE payments
  ADD COLUMN refund_held_minor bigint NOT NULL DEFAULT 0,
  ADD COLUMN refunded_minor bigint NOT NULL DEFAULT 0,
  ADD COLUMN refunded_count integer NOT NULL DEFAULT 0,
  ADD CONSTRAINT refunds_within_payment
    CHECK (refund_held_minor >= 0 AND refund_held_minor <= amount_minor AND refunded_minor BETWEEN 0 AND refund_held_minor);

CREATE FUNCTION refunds_guard_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NOT (
       (OLD.status = 'awaiting_destination' AND NEW.status IN ('ready', 'submitted', 'succeeded', 'cancelled'))
    OR (OLD.status = 'ready' AND NEW.status IN ('submitted', 'succeeded', 'cancelled'))
    OR (OLD.status = 'submitted' AND NEW.status IN ('succeeded', 'failed'))
  ) THEN
    RAISE EXCEPTION 'illegal refund transition % -> %', OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER refunds_guard_transition BEFORE UPDATE OF status ON refunds
  FOR EACH ROW EXECUTE FUNCTION refunds_guard_transition();

CREATE FUNCTION refunds_hold_payment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  held_now  boolean := NEW.status IN ('awaiting_destination', 'ready', 'submitted', 'succeeded');
  held_then boolean := TG_OP = 'UPDATE' AND OLD.status IN ('awaiting_destination', 'ready', 'submitted', 'succeeded');
  succeeded_then boolean := TG_OP = 'UPDATE' AND OLD.status = 'succeeded';
BEGIN
  IF NEW.payment_id IS NULL OR NEW.amount_minor IS NULL THEN
    RETURN NULL;
  END IF;
  IF held_now IS DISTINCT FROM held_then OR (NEW.status = 'succeeded') IS DISTINCT FROM succeeded_then THEN
    UPDATE payments
       SET refund_held_minor = refund_held_minor
             + CASE WHEN held_now AND NOT held_then THEN NEW.amount_minor
                    WHEN held_then AND NOT held_now THEN -NEW.amount_minor ELSE 0 END,
           refunded_minor = refunded_minor + CASE WHEN NEW.status = 'succeeded' AND NOT succeeded_then THEN NEW.amount_minor ELSE 0 END,
           refunded_count = refunded_count + CASE WHEN NEW.status = 'succeeded' AND NOT succeeded_then THEN 1 ELSE 0 END
     WHERE id = NEW.payment_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER refunds_hold_payment AFTER INSERT OR UPDATE OF status ON refunds
  FOR EACH ROW EXECUTE FUNCTION refunds_hold_payment();

-- The webhook events refund.created, refund.succeeded, refund.failed and refund.cancelled, written in the
-- commit that makes the change, as a payment's are. The refund row is kept as it was then, numbers as text.
ALTER TABLE webhook_events ADD COLUMN refund jsonb;

CREATE FUNCTION refunds_webhook_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text := 'refund.' || CASE WHEN TG_OP = 'INSERT' THEN 'created' ELSE NEW.status END;
  event_id   text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e
                  WHERE e.merchant_id = NEW.merchant_id AND e.deleted_at IS NULL AND event_type = ANY (e.events)) THEN
    RETURN NULL;
  END IF;
  event_id := 'evt_' || replace(gen_random_uuid()::text, '-', '');
  INSERT INTO webhook_events (id, partner_id, merchant_id, payment_id, type, payment, refund, created_at)
  VALUES (event_id, NEW.partner_id, NEW.merchant_id, NEW.payment_id, event_type, NULL,
          to_jsonb(NEW) || jsonb_build_object('amount_minor', NEW.amount_minor::text, 'token_amount', NEW.token_amount::text,
                                              'block_number', NEW.block_number::text),
          NEW.updated_at);
  INSERT INTO webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, created_at)
  SELECT event_id, e.id, CASE WHEN e.status = 'enabled' THEN 'pending' ELSE 'held' END,
         CASE WHEN e.status = 'enabled' THEN NEW.updated_at END, NEW.updated_at
    FROM webhook_endpoints e
   WHERE e.merchant_id = NEW.merchant_id AND e.deleted_at IS NULL AND event_type = ANY (e.events);
  PERFORM pg_notify('till_webhooks', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER refunds_webhook_created AFTER INSERT ON refunds
  FOR EACH ROW EXECUTE FUNCTION refunds_webhook_event();
CREATE TRIGGER refunds_webhook_ended AFTER UPDATE OF status ON refunds
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('succeeded', 'failed', 'cancelled'))
  EXECUTE FUNCTION refunds_webhook_event();

-- Endpoints created for every event (none named) had each event written out: they get the new ones too.
UPDATE webhook_endpoints SET events = events || ARRAY['refund.created', 'refund.succeeded', 'refund.failed', 'refund.cancelled']
 WHERE events @> ARRAY['payment.processing', 'payment.succeeded', 'payment.failed', 'payment.expired', 'payment.cancelled',
                       'transfer.unapplied'];

-- The payment snapshots the outbox keeps carry the new amounts as text too: a JSON number would lose digits
-- past 2^53.
CREATE OR REPLACE FUNCTION payments_webhook_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text := 'payment.' || NEW.status;
  event_id   text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e
                  WHERE e.merchant_id = NEW.merchant_id AND e.deleted_at IS NULL AND event_type = ANY (e.events)) THEN
    RETURN NULL;
  END IF;
  event_id := 'evt_' || replace(gen_random_uuid()::text, '-', '');
  INSERT INTO webhook_events (id, partner_id, merchant_id, payment_id, type, payment, created_at)
  VALUES (event_id, NEW.partner_id, NEW.merchant_id, NEW.id, event_type,
          to_jsonb(NEW) || jsonb_build_object(
            'amount_minor', NEW.amount_minor::text, 'amount_major', NEW.amount_major::text,
            'token_value', NEW.token_value::text, 'fee_minor', NEW.fee_minor::text,
            'settlement_minor', NEW.settlement_minor::text, 'tx_nonce', NEW.tx_nonce::text,
            'buyer_key', NEW.buyer_key::text, 'refund_held_minor', NEW.refund_held_minor::text,
            'refunded_minor', NEW.refunded_minor::text),
          NEW.updated_at);
  -- A disabled endpoint's deliveries are held, not dropped: enabling it sends them.
  INSERT INTO webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, created_at)
  SELECT event_id, e.id, CASE WHEN e.status = 'enabled' THEN 'pending' ELSE 'held' END,
         CASE WHEN e.status = 'enabled' THEN NEW.updated_at END, NEW.updated_at
    FROM webhook_endpoints e
   WHERE e.merchant_id = NEW.merchant_id AND e.deleted_at IS NULL AND event_type = ANY (e.events);
  -- Sent at commit: dispatchers wake at once instead of at their next poll.
  PERFORM pg_notify('till_webhooks', '');
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION unapplied_transfers_webhook_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text := 'transfer.unapplied';
  event_id   text;
  snapshot   jsonb;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e
                  WHERE e.merchant_id = NEW.merchant_id AND e.deleted_at IS NULL AND event_type = ANY (e.events)) THEN
    RETURN NULL;
  END IF;
  SELECT to_jsonb(p) || jsonb_build_object(
           'amount_minor', p.amount_minor::text, 'amount_major', p.amount_major::text,
           'token_value', p.token_value::text, 'fee_minor', p.fee_minor::text,
           'settlement_minor', p.settlement_minor::text, 'tx_nonce', p.tx_nonce::text,
           'buyer_key', p.buyer_key::text, 'refund_held_minor', p.refund_held_minor::text,
           'refunded_minor', p.refunded_minor::text)
    INTO snapshot
    FROM payments p WHERE p.id = NEW.payment_id;
  event_id := 'evt_' || replace(gen_random_uuid()::text, '-', '');
  INSERT INTO webhook_events (id, partner_id, merchant_id, payment_id, type, payment, transfer, created_at)
  SELECT event_id, m.partner_id, NEW.merchant_id, NEW.payment_id, event_type, snapshot,
         to_jsonb(NEW) || jsonb_build_object('amount', NEW.amount::text, 'block_number', NEW.block_number::text),
         NEW.recorded_at
    FROM merchants m WHERE m.id = NEW.merchant_id;
  -- A disabled endpoint's deliveries are held, not dropped: enabling it sends them.
  INSERT INTO webhook_deliveries (event_id, endpoint_id, status, next_attempt_at, created_at)
  SELECT event_id, e.id, CASE WHEN e.status = 'enabled' THEN 'pending' ELSE 'held' END,
         CASE WHEN e.status = 'enabled' THEN NEW.recorded_at END, NEW.recorded_at
    FROM webhook_endpoints e
   WHERE e.merchant_id = NEW.merchant_id AND e.deleted_at IS NULL AND event_type = ANY (e.events);
  -- Sent at commit: dispatchers wake at once instead of at their next poll.
  PERFORM pg_notify('till_webhooks', '');
  RETURN NULL;
END
$$;
