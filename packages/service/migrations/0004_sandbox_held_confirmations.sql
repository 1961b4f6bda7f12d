-- Sandbox: a slow test wallet's confirmation may be held, with no due time, until a test releases it
-- (`till serve --sandbox-hold-confirmations`, POST /v1/sandbox/payments/{paymentId}/confirm). A held row
-- is never due, so the poller leaves it alone.
ALTER TABLE sandbox_confirmations ALTER COLUMN due_at DROP NOT NULL;
