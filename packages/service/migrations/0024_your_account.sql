-- "Your account" (issue 26, point 6): a signed-in member adds a passkey; the registration's challenge is
-- theirs alone, as an invitation's is the invitation's.
ALTER TABLE dashboard_challenges ADD COLUMN user_id text REFERENCES dashboard_users (id);
