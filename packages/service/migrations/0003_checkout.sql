-- Secrets the service makes for itself, shared by every instance on one database: the key that signs
-- checkout tokens must be the same wherever the buyer's next request lands.
CREATE TABLE service_secrets (
  name       text PRIMARY KEY,
  secret     bytea NOT NULL CHECK (octet_length(secret) >= 32),
  created_at timestamptz NOT NULL
);

-- Sandbox: confirmations the slow test wallet delivers later. A row, not a timer, so a restart or another
-- instance still confirms the payment.
CREATE TABLE sandbox_confirmations (
  payment_id text PRIMARY KEY REFERENCES payments (id),
  due_at     timestamptz NOT NULL
);
CREATE INDEX sandbox_confirmations_due ON sandbox_confirmations (due_at);
