import { ErrorBody, PaymentListResponse } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount, testClock, useTestApp } from '../../test/fixtures.ts'
import { at, insertPayments, type SeedPayment } from '../../test/listing-fixtures.ts'

const clock = testClock()
const ctx = useTestApp({ clock })

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
})

async function page(query: string, apiKey = account.apiKey) {
  const response = await ctx.app.inject({ url: `/v1/payments?${query}`, headers: { 'api-key': apiKey } })
  expect(response.statusCode, response.body).toBe(200)
  return PaymentListResponse.parse(response.json())
}

/** Follows nextCursor to the end, `limit` rows a page; returns every id in the order seen and each page's stats. */
async function crawl(query: string, between?: (pageNumber: number) => Promise<void>) {
  const ids: string[] = []
  const stats: PaymentListResponse['stats'][] = []
  let cursor: string | null = null
  for (let n = 0; n < 1000; n++) {
    const body = await page(cursor ? `${query}&cursor=${encodeURIComponent(cursor)}` : query)
    ids.push(...body.data.map((p) => p.paymentId))
    stats.push(body.stats)
    cursor = body.nextCursor
    if (cursor === null) return { ids, stats }
    await between?.(n)
  }
  throw new Error('the crawl did not end')
}

const seed = (rows: Omit<SeedPayment, 'partnerId' | 'merchantId'>[]) =>
  insertPayments(
    ctx.tdb.db,
    rows.map((row) => ({ ...account, ...row })),
  )

describe('keyset pagination', () => {
  it('crawls equal amounts one row a page in both directions, ties broken by id, nothing lost or repeated', async () => {
    const ids = await seed([
      ...Array.from({ length: 5 }, (_, i) => ({ createdAt: at('2026-01-01', i), amountMinor: 700n })),
      ...Array.from({ length: 4 }, (_, i) => ({ createdAt: at('2026-01-02', i), amountMinor: 300n })),
    ])
    const low = ids.slice(5).sort()
    const high = ids.slice(0, 5).sort()
    const ascending = await crawl('sortBy=amount&sortDir=asc&limit=1')
    expect(ascending.ids).toEqual([...low, ...high])
    const descending = await crawl('sortBy=amount&sortDir=desc&limit=1')
    expect(descending.ids).toEqual([...low, ...high].reverse())
  })

  it('crawls equal timestamps and timestamps a microsecond apart, which a JS Date cannot tell apart', async () => {
    const same = await seed(Array.from({ length: 3 }, () => ({ createdAt: '2026-01-01T00:00:00.000100Z' })))
    const [early, late] = await seed([{ createdAt: '2026-01-01T00:00:00.000099Z' }, { createdAt: '2026-01-01T00:00:00.000101Z' }])
    const expected = [early, ...same.sort(), late]
    expect((await crawl('sortDir=asc&limit=1')).ids).toEqual(expected)
    expect((await crawl('sortDir=desc&limit=2')).ids).toEqual([...expected].reverse())
  })

  it('neither drops nor repeats rows when payments are created and change status between pages', async () => {
    const original = await seed(
      Array.from({ length: 6 }, (_, i) => ({ createdAt: at(`2026-01-0${i + 1}`), status: 'processing' as const })),
    )
    const crawled = await crawl('limit=2', async (n) => {
      await seed([{ createdAt: at('2026-02-01', n) }])
      await ctx.tdb.db.query(`UPDATE payments SET status = 'succeeded' WHERE id = $1`, [original[n] ?? ''])
    })
    expect(crawled.ids).toEqual([...original].reverse())
  })

  it('reports the same stats on every page of one query, and nextCursor is null on the last page', async () => {
    await seed(Array.from({ length: 5 }, (_, i) => ({ createdAt: at('2026-01-01', i), amountMinor: 1000n })))
    const crawled = await crawl('limit=2', async () => {
      await seed([{ createdAt: at('2026-03-01') }])
    })
    expect(crawled.ids).toHaveLength(5)
    expect(new Set(crawled.stats.map((s) => JSON.stringify(s))).size).toBe(1)
    expect(crawled.stats[0]).toEqual({ totalRevenue: [{ currency: 'EUR', amount: 50 }], totalTransactions: 5, totalCustomers: 5 })
    expect((await page('limit=7')).nextCursor).toBeNull()
    expect((await page('limit=6')).nextCursor).not.toBeNull()
  })

  it('lets the page size change between pages', async () => {
    const ids = await seed(Array.from({ length: 4 }, (_, i) => ({ createdAt: at('2026-01-01', i) })))
    const first = await page('limit=1')
    const rest = await page(`limit=3&cursor=${encodeURIComponent(first.nextCursor ?? '')}`)
    expect([...first.data, ...rest.data].map((p) => p.paymentId)).toEqual([...ids].reverse())
  })
})

describe('cursors are bound to their query', () => {
  let cursor: string
  beforeEach(async () => {
    await seed(Array.from({ length: 3 }, (_, i) => ({ createdAt: at('2026-01-01', i), tokenSymbol: 'USDC' })))
    cursor = (await page('limit=1&token_symbol=USDC')).nextCursor ?? ''
    expect(cursor).not.toBe('')
  })

  const refused = async (query: string, headers: Record<string, string> = { 'api-key': account.apiKey }) => {
    const response = await ctx.app.inject({ url: `/v1/payments?${query}`, headers })
    expect(response.statusCode).toBe(400)
    const body = ErrorBody.parse(response.json())
    expect(body).toMatchObject({ code: 'invalid_params', issues: [{ field: 'cursor' }] })
  }

  it.each([
    ['another filter', 'token_symbol=USDT'],
    ['no filter', ''],
    ['another sort', 'token_symbol=USDC&sortBy=amount'],
    ['another direction', 'token_symbol=USDC&sortDir=asc'],
  ])('refuses it replayed with %s', async (_name, query) => {
    await refused(`${query}&cursor=${encodeURIComponent(cursor)}`)
  })

  it('refuses it on another API version', async () => {
    await refused(`token_symbol=USDC&cursor=${encodeURIComponent(cursor)}`, {
      'api-key': account.apiKey,
      'pay-version': '2026-02-19.preview',
    })
  })

  it('refuses it from another partner', async () => {
    const other = await createAccount(ctx.tdb.db)
    await refused(`token_symbol=USDC&cursor=${encodeURIComponent(cursor)}`, { 'api-key': other.apiKey })
  })

  it('refuses it altered by one character, anywhere', async () => {
    for (const index of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
      const flipped = cursor.slice(0, index) + (cursor[index] === 'A' ? 'B' : 'A') + cursor.slice(index + 1)
      await refused(`token_symbol=USDC&cursor=${encodeURIComponent(flipped)}`)
    }
  })
})
