-- The dashboard's "Team" page (issue 26, point 5): each member's last sign-in, kept on the member rather than
-- searched for in the audit log, which is pruned.
ALTER TABLE dashboard_users ADD COLUMN last_sign_in_at timestamptz;

-- The Team page's open invitations of a partner, newest first.
CREATE INDEX dashboard_invitations_open ON dashboard_invitations (partner_id, created_at DESC) WHERE used_at IS NULL;
