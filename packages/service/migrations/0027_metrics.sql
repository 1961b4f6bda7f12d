-- Metrics (issue 27, point 2): the webhook backlog is counted at every scrape; held deliveries (their
-- endpoint disabled) are counted through this index, pending ones through webhook_deliveries_due.
CREATE INDEX webhook_deliveries_held ON webhook_deliveries (endpoint_id) WHERE status = 'held';
