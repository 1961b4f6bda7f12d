-- The rollups built in bulk from the payments, as migration 0005 first built them: one definition for
-- whoever loads payments without the triggers (the listing bench's seed), like rebuild_customer_sets().
-- It replaces what the rollups held; pending deltas are dropped, since they are counted again.
CREATE FUNCTION rebuild_payment_stats() RETURNS void LANGUAGE sql AS $$
  TRUNCATE payment_stat_deltas, payment_stats, payment_stats_partner;
  INSERT INTO payment_stats (merchant_id, day, status, currency, token_symbol, network, partner_id, payments, amount_minor)
  SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, coalesce(token_symbol, ''), coalesce(network, ''),
         partner_id, count(*), sum(amount_minor)
    FROM payments GROUP BY 1, 2, 3, 4, 5, 6, 7;
  INSERT INTO payment_stats_partner (partner_id, day, status, currency, token_symbol, network, payments, amount_minor)
  SELECT partner_id, day, status, currency, token_symbol, network, sum(payments), sum(amount_minor)
    FROM payment_stats GROUP BY 1, 2, 3, 4, 5, 6;
$$;
