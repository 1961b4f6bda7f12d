-- The dashboard's people (issue 25, point 2): users of a partner with a role, the invitations that make them,
-- their server-side sessions, and the audit log of what they and the API did. Passwords are argon2id PHC
-- strings; invitation and session tokens are kept only as SHA-256 hashes, so a copy of the database signs
-- nobody in.
CREATE TABLE dashboard_users (
  id            text PRIMARY KEY,
  partner_id    text NOT NULL REFERENCES partners (id),
  -- A user limited to one merchant sees and acts on that merchant's payments only.
  merchant_id   text REFERENCES merchants (id),
  -- Lower case: one person, one account, whichever way they type it.
  email         text NOT NULL UNIQUE CHECK (email = lower(email)),
  role          text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  password_hash text CHECK (password_hash LIKE '$argon2id$%'),
  created_at    timestamptz NOT NULL,
  removed_at    timestamptz
);
CREATE INDEX dashboard_users_partner ON dashboard_users (partner_id, created_at);

CREATE TABLE dashboard_invitations (
  id          text PRIMARY KEY,
  token_hash  bytea NOT NULL UNIQUE,
  partner_id  text NOT NULL REFERENCES partners (id),
  merchant_id text REFERENCES merchants (id),
  email       text NOT NULL CHECK (email = lower(email)),
  role        text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  -- Who invited: a user, or null for the command line.
  invited_by  text REFERENCES dashboard_users (id),
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);

CREATE TABLE dashboard_sessions (
  token_hash   bytea PRIMARY KEY,
  user_id      text NOT NULL REFERENCES dashboard_users (id),
  -- Sent back by the browser code with every state-changing request, beside the cookie.
  csrf_token   text NOT NULL,
  created_at   timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  -- The session's hard end: created_at + 7 days. Idle ones end 12 hours after last_seen_at.
  expires_at   timestamptz NOT NULL,
  ended_at     timestamptz,
  address      text
);
-- A user's open sessions: "Sign out everywhere", and a removed member's sessions ended at once.
CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id) WHERE ended_at IS NULL;

-- Who did what, when and from where (issue 25, point 4): sign-ins, failed sign-ins, invitations, cancels,
-- refunds, key and webhook changes. Kept 400 days (issue 27 prunes it).
CREATE TABLE audit_log (
  id         bigserial PRIMARY KEY,
  -- Null for a failed sign-in that names no account: it belongs to no partner.
  partner_id text REFERENCES partners (id),
  user_id    text REFERENCES dashboard_users (id),
  -- The email tried, for a failed sign-in that names no user.
  actor      text,
  action     text NOT NULL,
  target     text,
  address    text,
  details    jsonb,
  at         timestamptz NOT NULL
);
-- The owner's "Audit log" page: newest first, a page at a time.
CREATE INDEX audit_log_partner ON audit_log (partner_id, at DESC, id DESC);
-- Failed sign-ins are counted from the log itself, per account and per address, so every instance refuses
-- alike (dashboard/sign-in.ts).
CREATE INDEX audit_log_failed_by_actor ON audit_log (actor, at) WHERE action = 'sign_in_failed';
CREATE INDEX audit_log_failed_by_address ON audit_log (address, at) WHERE action = 'sign_in_failed';

-- A payment's page reads its timeline by the payment: its bound transfers, and its webhook events.
CREATE INDEX evm_transfers_payment ON evm_transfers (payment_id);
CREATE INDEX webhook_events_payment ON webhook_events (payment_id) WHERE payment_id IS NOT NULL;

-- Passkeys (WebAuthn): a user's credentials, found by the id the authenticator gives. The public key and the
-- signature counter are what a sign-in is verified against; nothing here can sign anyone in by itself.
CREATE TABLE dashboard_passkeys (
  credential_id text PRIMARY KEY,
  user_id       text NOT NULL REFERENCES dashboard_users (id),
  public_key    bytea NOT NULL,
  counter       bigint NOT NULL DEFAULT 0 CHECK (counter >= 0),
  transports    text[] NOT NULL DEFAULT '{}',
  name          text NOT NULL,
  created_at    timestamptz NOT NULL,
  last_used_at  timestamptz
);
CREATE INDEX dashboard_passkeys_user ON dashboard_passkeys (user_id);

-- The challenges a passkey ceremony signs: single-use, for five minutes, kept where every instance sees them.
CREATE TABLE dashboard_challenges (
  id            text PRIMARY KEY,
  challenge     text NOT NULL,
  purpose       text NOT NULL CHECK (purpose IN ('register', 'sign_in')),
  invitation_id text REFERENCES dashboard_invitations (id),
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz
);

-- The dashboard's search box finds a payment by its transaction's hash, or by its buyer's address on any
-- network, as people paste them (any case).
CREATE INDEX payments_tx_hash_search ON payments (lower(tx_hash)) WHERE tx_hash IS NOT NULL;
CREATE INDEX payments_buyer_address ON payments (partner_id, lower(split_part(buyer_account, ':', 3))) WHERE buyer_account IS NOT NULL;
