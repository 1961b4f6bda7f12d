-- Unapplied transfers (issue 23, point 4): buyers' transfers to a merchant that paid no payment, kept for the
-- merchant to refund. They replace 0011's late transfers, which were one case of them.

-- One row per transaction that reached a merchant and paid nothing, with why (evm/unapplied.ts). The key is
-- the transaction alone, as in evm_transfers: a transaction pays one payment, or is recorded once as
-- unapplied, never both and never twice. A buyer who submits the same hash again, or a chain watcher that
-- sees a transfer the checkout page already posted, finds it taken (ON CONFLICT DO NOTHING), so a refund is
-- never listed, nor announced by webhook, twice. Hashes are stored in lower case.
CREATE TABLE evm_unapplied_transfers (
  network      text NOT NULL,
  tx_hash      text NOT NULL CHECK (tx_hash = lower(tx_hash)),
  -- The ERC-20 Transfer log's index in its block; null when recorded from a hash the checkout page posted,
  -- before the transaction was mined.
  log_index    integer CHECK (log_index >= 0),
  merchant_id  text NOT NULL REFERENCES merchants (id),
  -- The payment it matched; null when it matched none (no_matching_payment).
  payment_id   text REFERENCES payments (id),
  reason       text NOT NULL CHECK (reason IN ('payment_expired', 'payment_cancelled', 'payment_already_paid',
                                                'amount_mismatch', 'no_matching_payment')),
  sender       text NOT NULL,
  recipient    text NOT NULL,
  token        text NOT NULL,
  amount       numeric(78, 0) NOT NULL CHECK (amount > 0),
  -- The block it was mined in; null while it waits in a mempool.
  block_number bigint,
  recorded_at  timestamptz NOT NULL,
  PRIMARY KEY (network, tx_hash)
);

-- A merchant's unapplied transfers, newest first, a page at a time (`GET
-- /v1/merchants/{id}/unapplied-transfers`, `till transfers unapplied`): the key continues after the last
-- row of the previous page, ties on the instant broken by the transaction.
CREATE INDEX evm_unapplied_transfers_merchant ON evm_unapplied_transfers (merchant_id, recorded_at DESC, network DESC, tx_hash DESC);

-- 0011's late transfers move here, each with the reason its payment's status gives: paid (or being paid) by
-- another transaction, or ended unpaid. A late transfer was recorded from a posted hash, so it has no log index.
INSERT INTO evm_unapplied_transfers (network, tx_hash, log_index, merchant_id, payment_id, reason, sender, recipient, token,
                                     amount, block_number, recorded_at)
SELECT t.network, t.tx_hash, NULL, t.merchant_id, t.payment_id,
       CASE WHEN p.status IN ('succeeded', 'processing') THEN 'payment_already_paid' ELSE 'payment_expired' END,
       t.sender, t.recipient, t.token, t.amount, t.block_number, t.recorded_at
  FROM evm_transfers t JOIN payments p ON p.id = t.payment_id
 WHERE t.late;

DELETE FROM evm_transfers WHERE late;
DROP INDEX evm_transfers_late;
ALTER TABLE evm_transfers DROP COLUMN late;

-- From here on the two tables share that key: an insert into either is skipped (as ON CONFLICT DO NOTHING skips it, so the
-- caller reads false) when the other has the transaction. The advisory lock, held to the end of the
-- transaction, orders two concurrent claims of one hash across the tables: the second waits, then sees the
-- first's row.
CREATE FUNCTION evm_transaction_claimed_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('evm_transaction:' || NEW.network || ':' || NEW.tx_hash, 0));
  IF TG_TABLE_NAME = 'evm_transfers' THEN
    IF EXISTS (SELECT 1 FROM evm_unapplied_transfers u WHERE u.network = NEW.network AND u.tx_hash = NEW.tx_hash) THEN
      RETURN NULL;
    END IF;
  ELSIF EXISTS (SELECT 1 FROM evm_transfers t WHERE t.network = NEW.network AND t.tx_hash = NEW.tx_hash) THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER evm_transfers_claimed_once BEFORE INSERT ON evm_transfers
  FOR EACH ROW EXECUTE FUNCTION evm_transaction_claimed_once();
CREATE TRIGGER evm_unapplied_transfers_claimed_once BEFORE INSERT ON evm_unapplied_transfers
  FOR EACH ROW EXECUTE FUNCTION evm_transaction_claimed_once();

-- The webhook event transfer.unapplied. Its outbox row keeps the transfer as recorded and the payment it
-- matched as it was then (or null): an event is about a payment, a transfer, or both.
ALTER TABLE webhook_events ALTER COLUMN payment_id DROP NOT NULL;
ALTER TABLE webhook_events ALTER COLUMN payment DROP NOT NULL;
ALTER TABLE webhook_events ADD COLUMN transfer jsonb;

-- Endpoints created for every event (none named) had each payment event written out: they get the new one too.
UPDATE webhook_endpoints SET events = events || ARRAY['transfer.unapplied']
 WHERE events @> ARRAY['payment.processing', 'payment.succeeded', 'payment.failed', 'payment.expired'];

-- Fills the outbox in the transaction that records the transfer, as payments_webhook_event (0008) does for
-- a payment's status: whichever code path records it (a posted hash, a chain watcher), the event commits
-- with it. Numbers are kept as text: a JSON number would lose digits past 2^53.
CREATE FUNCTION unapplied_transfers_webhook_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
           'buyer_key', p.buyer_key::text)
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

CREATE TRIGGER unapplied_transfers_webhook_event AFTER INSERT ON evm_unapplied_transfers
  FOR EACH ROW EXECUTE FUNCTION unapplied_transfers_webhook_event();
