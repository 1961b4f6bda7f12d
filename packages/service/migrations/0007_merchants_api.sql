-- Merchants over the API (issue 12): logos imported once and served by Till, and idempotency keys.
--
-- A logo is fetched from the partner's iconUrl when a merchant is created or updated, checked, re-encoded
-- and kept here, addressed by the SHA-256 of its largest variant: what buyers see changes only through a
-- PATCH, never because the file at the source address changed (spec 8.2, 4.6).
CREATE TABLE logo_images (
  digest       text NOT NULL CHECK (digest ~ '^[0-9a-f]{64}$'),
  size         integer NOT NULL CHECK (size > 0),
  content_type text NOT NULL,
  bytes        bytea NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (digest, size)
);

-- The logo shown (Till's copy), and the address it was imported from. Logos set before this migration
-- were never fetched or checked: they are dropped, and a PATCH sets them again.
ALTER TABLE merchants RENAME COLUMN icon_url TO logo_source_url;
UPDATE merchants SET logo_source_url = NULL;
ALTER TABLE merchants ADD COLUMN logo_digest text CHECK (logo_digest ~ '^[0-9a-f]{64}$');

-- POST /v1/merchants: the first answer per partner and key, replayed for 24 hours to the same body.
CREATE TABLE idempotency_keys (
  partner_id   text NOT NULL REFERENCES partners (id),
  key          text NOT NULL,
  operation    text NOT NULL,
  request_hash bytea NOT NULL,
  status       integer NOT NULL,
  response     jsonb NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (partner_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
