-- Bounded growth (issue 27, point 4): what the retention job prunes, oldest first, each through an index so
-- a batch never scans a table.
CREATE INDEX webhook_events_created ON webhook_events (created_at);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX dashboard_sessions_expires ON dashboard_sessions (expires_at);
CREATE INDEX dashboard_invitations_expires ON dashboard_invitations (expires_at);
CREATE INDEX dashboard_challenges_expires ON dashboard_challenges (expires_at);
-- An invitation a passkey challenge still names waits for the challenge to go first.
CREATE INDEX dashboard_challenges_invitation ON dashboard_challenges (invitation_id) WHERE invitation_id IS NOT NULL;
