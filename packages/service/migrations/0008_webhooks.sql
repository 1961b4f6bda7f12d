-- Webhooks (issue 13, docs/decisions/0021): merchants' endpoints, and a transactional outbox.
--
-- The outbox is filled by a trigger on the payment's status, so the event and its deliveries commit in the
-- transaction that changes the status, whichever code path changes it: a crash right after the commit
-- loses no event. Deliveries are claimed with FOR UPDATE SKIP LOCKED and a lease, so several instances
-- never send the same attempt twice.
CREATE TABLE webhook_endpoints (
  id                     text PRIMARY KEY,
  partner_id             text NOT NULL REFERENCES partners (id),
  merchant_id            text NOT NULL REFERENCES merchants (id),
  url                    text NOT NULL,
  events                 text[] NOT NULL,
  -- Standard Webhooks signs with the secret itself, so it is kept sealed (AES-256-GCM under a service
  -- key), not hashed. After a rotation the previous secret also signs until previous_secret_until.
  secret_sealed          bytea NOT NULL,
  previous_secret_sealed bytea,
  previous_secret_until  timestamptz,
  status                 text NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
  disabled_reason        text,
  created_at             timestamptz NOT NULL,
  deleted_at             timestamptz
);
CREATE INDEX webhook_endpoints_merchant ON webhook_endpoints (merchant_id, created_at DESC, id DESC) WHERE deleted_at IS NULL;

CREATE TABLE webhook_events (
  id          text PRIMARY KEY,
  partner_id  text NOT NULL,
  merchant_id text NOT NULL,
  payment_id  text NOT NULL,
  type        text NOT NULL,
  -- The payment row at the change, numbers as text (a JSON number would lose digits past 2^53).
  payment     jsonb NOT NULL,
  created_at  timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
  id              bigserial PRIMARY KEY,
  event_id        text NOT NULL REFERENCES webhook_events (id),
  endpoint_id     text NOT NULL REFERENCES webhook_endpoints (id),
  -- held: its endpoint is disabled; enabling it queues the delivery again.
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'held', 'delivered', 'failed')),
  -- Failed attempts so far; the retry schedule is indexed by it.
  failures        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  created_at      timestamptz NOT NULL,
  CONSTRAINT webhook_deliveries_once UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id DESC);

CREATE TABLE webhook_attempts (
  id           bigserial PRIMARY KEY,
  delivery_id  bigint NOT NULL REFERENCES webhook_deliveries (id),
  attempted_at timestamptz NOT NULL,
  status_code  integer,
  latency_ms   integer NOT NULL,
  error        text
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, id);

CREATE FUNCTION payments_webhook_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
            'buyer_key', NEW.buyer_key::text),
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

CREATE TRIGGER payments_webhook_event AFTER UPDATE OF status ON payments
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('processing', 'succeeded', 'failed', 'expired'))
  EXECUTE FUNCTION payments_webhook_event();
