// A realistic million payments for the listing bench, made inside PostgreSQL with generate_series: one
// partner, 200 merchants with a skewed share, four currencies (JPY and KWD among them), every status,
// twelve months of timestamps with microseconds, 300,000 distinct buyers, four token/network options.
// Triggers are off during the bulk insert; buyer keys and the statistics rollups are then built in bulk,
// the way the triggers would have, and the bench checks the rollups against a recount before timing.
import type { Database } from '../../src/db/port.ts'

export type SeedOptions = { payments: number; merchants: number; buyers: number; now: Date }

/** `paymentsSeconds`: until the payment rows are in; the rest builds indexes, rollups and customer sets. */
export type Seeded = { partnerId: string; merchantIds: string[]; paymentsSeconds: number }

export const BENCH_PARTNER = 'ptn_bench'

// Each row draws deterministic pseudo-random numbers in [0, 1), so two runs hold the same data: i times an
// odd constant modulo 2^32 (a Weyl sequence), far cheaper than a hash per draw and as evenly spread.
const MULTIPLIERS = [0, 2654435761, 2246822519, 3266489917, 668265263, 374761393, 1181783497]
const R = (n: number) => `(((i::bigint * ${MULTIPLIERS[n]} + ${n * 40503}) % 4294967296) / 4294967296.0)`
// Hex that looks like a hash, derived from numbers: a transaction hash needs 64 digits, nothing more.
const HEX64 = (seed: string) => `lpad(to_hex(${seed}), 16, '0') || lpad(to_hex((${seed}) * 31), 16, '0') || repeat('ab', 16)`

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
  // Indexes built once after the load are several times faster than a million incremental inserts into
  // each; they are the migration's own definitions, read back and re-run.
  const indexes = await db.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE tablename = 'payments' AND indexname <> 'payments_pkey'`,
  )
  for (const index of indexes) await db.exec(`DROP INDEX ${index.name}`)
  // Two halves on two connections: the machine's two cores both work.
  const half = Math.ceil(options.payments / 2)
  const ranges = [
    [1, half],
    [half + 1, options.payments],
  ] as const
  await Promise.all(
    ranges.map(([from, to]) =>
      db.transaction(async (tx) => {
        await tx.exec('SET LOCAL session_replication_role = replica')
        // Merchant m gets a share as u^3 falls: the first about 17 %, the last almost none. Open payments only
        // among the newest, as they would be; older ones ended long ago.
        await tx.query(
          `WITH base AS (
         SELECT i, floor($3 * power(${R(1)}, 3))::int AS m,
                $2::timestamptz - (${R(2)} * interval '365 days') AS created_at,
                ${R(3)} AS c, ${R(4)} AS s, ${R(6)} AS a, (i::bigint * 7919) % $5 AS b
           FROM generate_series($4::integer, $6::integer) i
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
       SELECT 'pay_' || lpad(to_hex(i::bigint * 2654435761 % 4294967296), 8, '0') || lpad(to_hex(i), 24, '0'), 'mer_bench' || lpad(m::text, 3, '0'), $1, 'order-' || lpad(i::text, 8, '0'),
              currency, exponent, amount, false, status, created_at, created_at + interval '2 minutes', created_at + interval '15 minutes',
              CASE WHEN paid THEN (SELECT account FROM buyers WHERE key = b + 1) END,
              CASE WHEN paid THEN b + 1 END,
              CASE WHEN paid THEN 'Wallet ' || (b % 5) END,
              CASE WHEN paid THEN chain END,
              CASE WHEN paid AND status <> 'failed' THEN '0x' || ${HEX64('i::bigint')} END,
              CASE WHEN paid THEN chain || '/erc20:0x' || substr(md5(symbol || chain), 1, 40) END,
              CASE WHEN paid THEN amount * 10000 END,
              CASE WHEN paid THEN symbol END, CASE WHEN paid THEN symbol || ' coin' END, CASE WHEN paid THEN 6 END,
              CASE WHEN status = 'succeeded' THEN (amount * 4 + 999) / 1000 END,
              CASE WHEN status = 'succeeded' THEN '0.4' END,
              CASE WHEN status = 'succeeded' THEN true END,
              CASE WHEN status = 'succeeded' THEN amount - (amount * 4 + 999) / 1000 END,
              CASE WHEN status = 'succeeded' THEN '0x' || ${HEX64('i::bigint + 7')} END,
              CASE WHEN status = 'succeeded' THEN created_at + interval '5 minutes' END
         FROM priced`,
          [partnerId, options.now, String(options.merchants), String(from), String(options.buyers), String(to)],
        )
      }),
    ),
  )
  const paymentsSeconds = (performance.now() - start) / 1000
  log(`  payments inserted at ${seconds()} s`)
  await db.transaction(async (tx) => {
    await tx.exec(`SET LOCAL maintenance_work_mem = '512MB'`)
    for (const index of indexes) await tx.exec(index.definition)
  })
  log(`  ${indexes.length} indexes built at ${seconds()} s`)
  // The rollups as the triggers and the compactor would have left them, built by migration 0012's rebuild.
  await db.exec('SELECT rebuild_payment_stats()')
  log(`  rollups built at ${seconds()} s`)
  // The customer sets as compaction would have left them, built by the migration's own bulk rebuild.
  await db.transaction(async (tx) => {
    await tx.exec(`SET LOCAL work_mem = '1GB'; SELECT rebuild_customer_sets();`)
  })
  log(`  customer sets built at ${seconds()} s`)
  await db.exec('VACUUM ANALYZE payments, payment_stats, payment_stats_partner, buyers, merchants, customer_cells, customer_members')
  log(`  vacuumed at ${seconds()} s`)
  const merchantIds = (await db.query<{ id: string }>('SELECT id FROM merchants WHERE partner_id = $1 ORDER BY id', [partnerId])).map(
    (row) => row.id,
  )
  return { partnerId, merchantIds, paymentsSeconds }
}
