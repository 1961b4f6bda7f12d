// A realistic million payments for the listing bench, made inside PostgreSQL with generate_series: one
// partner, 200 merchants with a skewed share, four currencies (JPY and KWD among them), every status,
// twelve months of timestamps with microseconds, 300,000 distinct buyers, four token/network options.
// Triggers are off during the bulk insert; buyer keys and the statistics rollups are then built in bulk,
// the way the triggers would have, and the bench checks the rollups against a recount before timing.
import type { Database } from '../../src/db/port.ts'

export type SeedOptions = { payments: number; merchants: number; buyers: number; now: Date }

export type Seeded = { partnerId: string; merchantIds: string[] }

export const BENCH_PARTNER = 'ptn_bench'

// Each row draws from its own deterministic pseudo-random numbers, so two runs hold the same data.
const R = (n: number) => `(('x' || substr(md5(i::text || '/${n}'), 1, 8))::bit(32)::bigint / 4294967296.0)`

// A buyer keeps one wallet: the same network every time (45 % Base, 40 % Ethereum, 15 % Polygon).
const BUYER_CHAIN = `CASE WHEN b % 20 < 9 THEN 'eip155:8453' WHEN b % 20 < 17 THEN 'eip155:1' ELSE 'eip155:137' END`

export async function seedPayments(db: Database, options: SeedOptions, log: (line: string) => void = () => {}): Promise<Seeded> {
  const start = performance.now()
  const seconds = () => ((performance.now() - start) / 1000).toFixed(1)
  const partnerId = BENCH_PARTNER
  await db.query(`INSERT INTO partners (id, name, pinned_version, created_at) VALUES ($1, 'Bench partner', '2026-02-18', $2)`, [
    partnerId,
    options.now,
  ])
  await db.query(
    `INSERT INTO merchants (id, partner_id, name, email, created_at, updated_at)
     SELECT 'mer_bench' || lpad(m::text, 3, '0'), $1, 'Merchant ' || m, 'm' || m || '@example.com', $2, $2
       FROM generate_series(0, $3 - 1) m`,
    [partnerId, options.now, String(options.merchants)],
  )
  await db.query(
    `INSERT INTO buyers (key, partner_id, account)
     SELECT b + 1, $1, ${BUYER_CHAIN} || ':0x' || substr(md5('b' || b) || md5('c' || b), 1, 40) FROM generate_series(0, $2 - 1) b`,
    [partnerId, String(options.buyers)],
  )
  await db.exec(`SELECT setval('buyers_key_seq', (SELECT max(key) FROM buyers))`)
  await db.transaction(async (tx) => {
    await tx.exec('SET LOCAL session_replication_role = replica')
    // Merchant m gets a share as u^3 falls: the first about 17 %, the last almost none. Open payments only
    // among the newest, as they would be; older ones ended long ago.
    await tx.query(
      `WITH base AS (
         SELECT i, floor($3 * power(${R(1)}, 3))::int AS m,
                $2::timestamptz - (${R(2)} * interval '365 days') AS created_at,
                ${R(3)} AS c, ${R(4)} AS s, ${R(6)} AS a, (i::bigint * 7919) % $5 AS b
           FROM generate_series(1, $4) i
       ), shaped AS (
         SELECT *,
                CASE WHEN c < 0.5 THEN 'USD' WHEN c < 0.8 THEN 'EUR' WHEN c < 0.92 THEN 'JPY' ELSE 'KWD' END AS currency,
                CASE
                  WHEN created_at > $2::timestamptz - interval '15 minutes' THEN CASE WHEN s < 0.7 THEN 'pending' ELSE 'processing' END
                  WHEN s < 0.64 THEN 'succeeded' WHEN s < 0.74 THEN 'failed' ELSE 'expired' END AS status,
                ${BUYER_CHAIN} AS chain,
                CASE WHEN b % 20 >= 14 AND b % 20 < 17 THEN 'USDT' ELSE 'USDC' END AS symbol
           FROM base
       ), priced AS (
         SELECT *, status IN ('processing', 'succeeded', 'failed') AS paid,
                CASE currency WHEN 'JPY' THEN 0 WHEN 'KWD' THEN 3 ELSE 2 END AS exponent,
                CASE currency
                  WHEN 'JPY' THEN 100 + floor(power(a, 3) * 200000)::bigint
                  WHEN 'KWD' THEN 500 + floor(power(a, 3) * 400000)::bigint
                  ELSE 100 + floor(power(a, 3) * 150000)::bigint
                END AS amount
           FROM shaped
       )
       INSERT INTO payments (id, merchant_id, partner_id, reference_id, currency, fiat_exponent, amount_minor,
                             redirect_enabled, status, created_at, updated_at, expires_at,
                             buyer_account, buyer_key, buyer_provider_name, network, tx_hash, token_unit, token_value,
                             token_symbol, token_name, token_decimals, fee_minor, fee_percentage,
                             settled, settlement_minor, settlement_tx_hash, settled_at)
       SELECT 'pay_' || md5('p' || i), 'mer_bench' || lpad(m::text, 3, '0'), $1, 'order-' || lpad(i::text, 8, '0'),
              currency, exponent, amount, false, status, created_at, created_at + interval '2 minutes', created_at + interval '15 minutes',
              CASE WHEN paid THEN chain || ':0x' || substr(md5('b' || b) || md5('c' || b), 1, 40) END,
              CASE WHEN paid THEN b + 1 END,
              CASE WHEN paid THEN 'Wallet ' || (b % 5) END,
              CASE WHEN paid THEN chain END,
              CASE WHEN paid AND status <> 'failed' THEN '0x' || md5('t' || i) || md5('u' || i) END,
              CASE WHEN paid THEN chain || '/erc20:0x' || substr(md5(symbol || chain), 1, 40) END,
              CASE WHEN paid THEN amount * 10000 END,
              CASE WHEN paid THEN symbol END, CASE WHEN paid THEN symbol || ' coin' END, CASE WHEN paid THEN 6 END,
              CASE WHEN status = 'succeeded' THEN (amount * 4 + 999) / 1000 END,
              CASE WHEN status = 'succeeded' THEN '0.4' END,
              CASE WHEN status = 'succeeded' THEN true END,
              CASE WHEN status = 'succeeded' THEN amount - (amount * 4 + 999) / 1000 END,
              CASE WHEN status = 'succeeded' THEN '0x' || md5('s' || i) || md5('v' || i) END,
              CASE WHEN status = 'succeeded' THEN created_at + interval '5 minutes' END
         FROM priced`,
      [partnerId, options.now, String(options.merchants), String(options.payments), String(options.buyers)],
    )
  })
  log(`  payments inserted at ${seconds()} s`)
  // The rollups as the triggers and the compactor would have left them.
  await db.exec(`
    INSERT INTO payment_stats (merchant_id, day, status, currency, token_symbol, network, partner_id, payments, amount_minor)
    SELECT merchant_id, (created_at AT TIME ZONE 'UTC')::date, status, currency, coalesce(token_symbol, ''), coalesce(network, ''),
           partner_id, count(*), sum(amount_minor)
      FROM payments GROUP BY 1, 2, 3, 4, 5, 6, 7;
    INSERT INTO payment_stats_partner (partner_id, day, status, currency, token_symbol, network, payments, amount_minor)
    SELECT partner_id, day, status, currency, token_symbol, network, sum(payments), sum(amount_minor)
      FROM payment_stats GROUP BY 1, 2, 3, 4, 5, 6;
  `)
  log(`  rollups built at ${seconds()} s`)
  await db.exec('VACUUM ANALYZE payments, payment_stats, payment_stats_partner, buyers, merchants')
  log(`  vacuumed at ${seconds()} s`)
  const merchantIds = (await db.query<{ id: string }>('SELECT id FROM merchants WHERE partner_id = $1 ORDER BY id', [partnerId])).map(
    (row) => row.id,
  )
  return { partnerId, merchantIds }
}
