import { describe, expect, it } from 'vitest'
import { createAccount, createBody, testClock, useTestApp } from '../../test/fixtures.ts'
import { insertPayments } from '../../test/listing-fixtures.ts'
import type { Queryable } from '../db/port.ts'
import { accountStore } from '../accounts/store.ts'
import type { ListingFilter } from './filter.ts'
import { compactStats } from './rollups.ts'
import { readStats } from './stats.ts'

const clock = testClock()
const ctx = useTestApp({ clock })

/** The truth: the statistics counted from the payments table alone, with no rollup involved. */
async function recount(db: Queryable, filter: ListingFilter) {
  const where = ['partner_id = $1']
  const params: (string | string[])[] = [filter.partnerId]
  const add = (sql: string, value: string | string[]) => {
    params.push(value)
    where.push(sql.replace('?', `$${params.length}`))
  }
  if (filter.merchantIds) add('merchant_id = ANY (?)', [...filter.merchantIds])
  if (filter.statuses) add('status = ANY (?)', [...filter.statuses])
  if (filter.tokenSymbols) add('token_symbol = ANY (?)', [...filter.tokenSymbols])
  if (filter.networks) add('network = ANY (?)', [...filter.networks])
  if (filter.startTs) add('created_at >= ?::timestamptz', filter.startTs)
  if (filter.endTs) add('created_at < ?::timestamptz', filter.endTs)
  const conditions = where.join(' AND ')
  const revenue = await db.query<{ currency: string; minor: string }>(
    `SELECT currency, sum(amount_minor)::text AS minor FROM payments WHERE ${conditions} AND status = 'succeeded' GROUP BY 1 ORDER BY 1`,
    params,
  )
  const [totals] = await db.query<{ n: string; c: string }>(
    `SELECT count(*)::text AS n, count(DISTINCT buyer_account)::text AS c FROM payments WHERE ${conditions}`,
    params,
  )
  return {
    revenue: revenue.map((row) => ({ currency: row.currency, minor: BigInt(row.minor) })),
    transactions: BigInt(totals?.n ?? 0),
    customers: BigInt(totals?.c ?? 0),
  }
}

const DAYS = ['2026-01-30', '2026-01-31', '2026-02-01']
const pick = <T>(values: readonly T[], i: number): T => values[i % values.length] as T

describe('listing statistics', () => {
  it('equal a full recount after a concurrent burst of creates, transitions and compactions', async () => {
    const account = await createAccount(ctx.tdb.db, { now: clock.now() })
    const second = await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'B',
      email: 'b@x.io',
      now: clock.now(),
    })
    const merchants = [account.merchantId, second.id]
    const seeded = (i: number) => ({
      partnerId: account.partnerId,
      merchantId: pick(merchants, i),
      // Microseconds either side of midnight, so partial days and whole days both take part.
      createdAt: `${pick(DAYS, i)}T${pick(['00:00:00.000000', '00:00:00.000001', '12:00:00.5', '23:59:59.999999'], i >> 1)}Z`,
      currency: pick(['EUR', 'JPY', 'KWD', 'USD'], i),
      amountMinor: BigInt(100 + ((i * 7919) % 100_000)),
      status: pick(['pending', 'processing', 'processing', 'failed', 'expired'] as const, i),
      buyer: `eip155:1:0x${String(i % 23).padStart(40, '0')}`,
      tokenSymbol: pick(['USDC', 'USDT'], i >> 2),
      network: pick(['eip155:1', 'eip155:8453', 'eip155:137'], i),
    })
    const ids = await insertPayments(
      ctx.tdb.db,
      Array.from({ length: 40 }, (_, i) => seeded(i)),
    )
    const burst: Promise<unknown>[] = []
    for (let i = 0; i < 40; i++) {
      burst.push(insertPayments(ctx.tdb.db, [seeded(100 + i)]))
      burst.push(
        ctx.app.inject({
          method: 'POST',
          url: '/v1/merchant/payment',
          headers: account.headers,
          payload: createBody({ amount: { unit: 'iso4217/JPY', value: String(1000 + i) } }),
        }),
      )
      // processing → succeeded, or pending → failed, as the lifecycle allows; some lose the race, as they may.
      burst.push(ctx.tdb.db.query(`UPDATE payments SET status = 'succeeded' WHERE id = $1 AND status = 'processing'`, [ids[i] ?? '']))
      burst.push(ctx.tdb.db.query(`UPDATE payments SET status = 'failed' WHERE id = $1 AND status = 'pending'`, [ids[(i * 3) % 40] ?? '']))
      if (i % 8 === 0) burst.push(compactStats(ctx.tdb.db))
    }
    await Promise.all(burst)

    const filters: Omit<ListingFilter, 'partnerId'>[] = [
      {},
      { statuses: ['succeeded'] },
      { statuses: ['failed', 'pending'] },
      { tokenSymbols: ['USDT'] },
      { networks: ['eip155:1', 'eip155:137'] },
      { merchantIds: [second.id] },
      { merchantIds: merchants, statuses: ['succeeded'], tokenSymbols: ['USDC'] },
      { startTs: '2026-01-31T00:00:00Z' },
      { endTs: '2026-01-31T00:00:00.000001Z' },
      { startTs: '2026-01-30T00:00:00.000001Z', endTs: '2026-02-01T00:00:00Z' },
      { startTs: '2026-01-30T23:59:59.999999Z', endTs: '2026-01-31T12:00:00.5Z' },
      { startTs: '2026-01-31T01:00:00+01:00', endTs: '2026-02-01T23:59:59.999999Z', statuses: ['succeeded'] },
      // Cells of the customer sets, and ranges that hold every payment (read from the sets too).
      { statuses: ['failed'], tokenSymbols: ['USDC'], networks: ['eip155:1'] },
      { merchantIds: [account.merchantId], statuses: ['succeeded'] },
      { tokenSymbols: ['USDT'], startTs: '2026-01-01T00:00:00Z' },
      { merchantIds: [second.id], endTs: '2027-01-01T00:00:00Z' },
      { statuses: ['succeeded', 'failed', 'expired', 'pending', 'processing'], networks: ['eip155:8453'] },
      { statuses: ['expired'] },
    ]
    // Last, the rollups rebuilt in bulk from the payments (migration 0012), as the listing bench's seed does.
    for (const stage of ['with deltas', 'compacted', 'rebuilt']) {
      if (stage === 'compacted') await compactStats(ctx.tdb.db)
      if (stage === 'rebuilt') await ctx.tdb.db.exec('SELECT rebuild_payment_stats()')
      for (const filter of filters) {
        const full = { partnerId: account.partnerId, ...filter }
        expect(await readStats(ctx.tdb.db, full), `${stage}: ${JSON.stringify(filter)}`).toEqual(await recount(ctx.tdb.db, full))
      }
    }
    const [left] = await ctx.tdb.db.query<{ n: string }>('SELECT count(*)::text AS n FROM payment_stat_deltas')
    expect(left?.n).toBe('0')
  })

  it('sums revenue exactly, beyond what a double holds, and converts it once by the ISO 4217 exponent', async () => {
    const account = await createAccount(ctx.tdb.db, { now: clock.now() })
    const huge = 9_007_199_254_740_993n // 2^53 + 1: a double would round it
    await insertPayments(ctx.tdb.db, [
      { ...account, createdAt: '2026-01-01T00:00:00Z', currency: 'JPY', amountMinor: huge },
      { ...account, createdAt: '2026-01-01T00:00:00Z', currency: 'JPY', amountMinor: 2n },
      { ...account, createdAt: '2026-01-01T00:00:00Z', currency: 'KWD', amountMinor: 1_005n },
      { ...account, createdAt: '2026-01-01T00:00:00Z', currency: 'USD', amountMinor: 10n },
      { ...account, createdAt: '2026-01-01T00:00:00Z', currency: 'USD', amountMinor: 20n },
      { ...account, createdAt: '2026-01-01T00:00:00Z', currency: 'EUR', amountMinor: 999n, status: 'failed' },
    ])
    const stats = await readStats(ctx.tdb.db, { partnerId: account.partnerId })
    expect(stats.revenue).toEqual([
      { currency: 'JPY', minor: huge + 2n },
      { currency: 'KWD', minor: 1_005n },
      { currency: 'USD', minor: 30n },
    ])
    const response = await ctx.app.inject({ url: '/v1/payments', headers: { 'api-key': account.apiKey } })
    expect(response.json<{ stats: unknown }>().stats).toEqual({
      totalRevenue: [
        { currency: 'JPY', amount: Number('9007199254740995') },
        { currency: 'KWD', amount: 1.005 },
        { currency: 'USD', amount: 0.3 },
      ],
      totalTransactions: 6,
      totalCustomers: 6,
    })
  })

  it('count each buyer once, whether their payments sit in the sets, in deltas not folded yet, or are still open', async () => {
    const account = await createAccount(ctx.tdb.db, { now: clock.now() })
    const [alice, bob, carol] = ['a', 'b', 'c'].map((c) => `eip155:8453:0x${c.repeat(40)}`)
    const paid = (buyer: string | undefined, status: 'succeeded' | 'failed' | 'processing', day: string) => ({
      ...account,
      createdAt: `2026-03-${day}T10:00:00Z`,
      status,
      buyer,
    })
    const customers = async (filter: Omit<ListingFilter, 'partnerId'>) =>
      (await readStats(ctx.tdb.db, { partnerId: account.partnerId, ...filter })).customers
    const succeeded = { statuses: ['succeeded'] as const }
    const merchantSucceeded = { merchantIds: [account.merchantId], statuses: ['succeeded'] as const }

    // Alice pays twice and Bob once before any compaction: Alice is one customer while both sit in deltas.
    await insertPayments(ctx.tdb.db, [paid(alice, 'succeeded', '01'), paid(alice, 'succeeded', '02'), paid(bob, 'succeeded', '02')])
    expect(await customers(succeeded)).toBe(2n)
    expect(await customers(merchantSucceeded)).toBe(2n)
    await compactStats(ctx.tdb.db)
    expect(await customers(succeeded)).toBe(2n)

    // After compaction: Alice again (a delta of a set member), Bob's failure, Carol still processing.
    await insertPayments(ctx.tdb.db, [paid(alice, 'succeeded', '03'), paid(bob, 'failed', '03'), paid(carol, 'processing', '04')])
    // Last, the rollups rebuilt in bulk from the payments (migration 0012), as the listing bench's seed does.
    for (const stage of ['with deltas', 'compacted', 'rebuilt']) {
      if (stage === 'compacted') await compactStats(ctx.tdb.db)
      if (stage === 'rebuilt') await ctx.tdb.db.exec('SELECT rebuild_payment_stats()')
      expect(await customers(succeeded), stage).toBe(2n)
      expect(await customers(merchantSucceeded), stage).toBe(2n)
      expect(await customers({ statuses: ['failed'] }), stage).toBe(1n)
      expect(await customers({}), stage).toBe(3n)
      expect(await customers({ merchantIds: [account.merchantId] }), stage).toBe(3n)
      expect(await customers({ tokenSymbols: ['USDC'], startTs: '2026-03-01T00:00:00Z' }), stage).toBe(3n)
      // A range that leaves payments out is counted from the payments, not from the sets.
      expect(await customers({ startTs: '2026-03-02T00:00:00Z', endTs: '2026-03-04T00:00:00Z' }), stage).toBe(2n)
    }
  })
})
