-- The dashboard's "Webhooks" page (issue 26, point 3): each attempt keeps the request as it was sent, its
-- headers (the signature included, never the secret) and its body, so staff see exactly what the shop got.
ALTER TABLE webhook_attempts ADD COLUMN request_headers jsonb;
ALTER TABLE webhook_attempts ADD COLUMN request_body text;
