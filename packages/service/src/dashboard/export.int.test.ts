// The Payments page's "Export CSV": the whole filtered set, every row and not just a page, streamed a batch
// at a time, with the listing's fields flattened and amounts in minor and standard units.
import v8 from 'node:v8'
import vm from 'node:vm'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Queryable } from '../db/port.ts'
import { createAccount, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { insertPayments } from '../../test/listing-fixtures.ts'
import { CSV_COLUMNS, csvField, csvHeader, standardUnits } from './csv.ts'
import { dashboardMember, listenOnLoopback } from '../../test/dashboard-fixtures.ts'

const clock = testClock()
const ctx = useTestApp({ clock })
let account: Account
let cookie: string
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db)
  cookie = (await dashboardMember(ctx, clock, account, 'viewer')).cookie
})

/** The CSV's records, each a map of column to text: a small parser of exactly what csv.ts writes. */
function records(csv: string): Record<string, string>[] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < csv.length; i++) {
    const char = csv[i]
    if (quoted && char === '"' && csv[i + 1] === '"') {
      field += '"'
      i++
    } else if (char === '"') {
      quoted = !quoted
    } else if (quoted || (char !== ',' && char !== '\r' && char !== '\n')) {
      field += char
    } else if (char === ',' || char === '\n') {
      row.push(field)
      field = ''
      if (char === '\n') {
        rows.push(row)
        row = []
      }
    }
  }
  const [header = [], ...data] = rows
  expect(header).toEqual([...CSV_COLUMNS])
  return data.map((values) => Object.fromEntries(header.map((name, index) => [name, values[index] ?? ''])))
}

describe('Export CSV', () => {
  it('streams every matching row, past any page, newest first, with amounts in both units', async () => {
    const start = Date.parse('2026-11-01T00:00:00Z')
    await insertPayments(
      ctx.tdb.db,
      Array.from({ length: 1_203 }, (_, n) => ({
        ...account,
        createdAt: new Date(start + n * 60_000).toISOString(),
        amountMinor: BigInt(100 + n),
        status: n % 3 === 0 ? ('expired' as const) : ('succeeded' as const),
        referenceId: `order-${String(n).padStart(5, '0')}`,
      })),
    )
    const exported = await ctx.app.inject({ url: '/dashboard/api/payments/export.csv', headers: { cookie } })
    expect(exported.statusCode).toBe(200)
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(exported.headers['content-disposition']).toBe('attachment; filename="payments-2026-11-21.csv"')
    const rows = records(exported.body)
    expect(rows).toHaveLength(1_203)
    expect(rows[0]).toMatchObject({ referenceId: 'order-01202', fiatCurrency: 'EUR', fiatAmountMinor: '1302', fiatAmount: '13.02' })
    expect(rows[0]).toMatchObject({ tokenSymbol: 'USDC', tokenAmountMinor: '1000000', tokenAmount: '1.000000', status: 'succeeded' })
    expect(rows.at(-1)).toMatchObject({ referenceId: 'order-00000', status: 'expired', isTerminal: 'true', buyer: '' })

    const filtered = records((await ctx.app.inject({ url: '/dashboard/api/payments/export.csv?status=expired', headers: { cookie } })).body)
    expect(filtered).toHaveLength(401)
    expect(new Set(filtered.map((row) => row.status))).toEqual(new Set(['expired']))
  })

  it('refuses a bad filter in the spec’s shape before sending anything, and anyone not signed in', async () => {
    const bad = await ctx.app.inject({ url: '/dashboard/api/payments/export.csv?status=paid', headers: { cookie } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ code: 'invalid_params', issues: [{ field: 'status[0]' }] })
    expect((await ctx.app.inject({ url: '/dashboard/api/payments/export.csv' })).statusCode).toBe(401)
  })
})

/**
 * `count` succeeded and expired payments of one merchant, a second apart back from `newest`, made with
 * generate_series as the listing bench seeds them: insertPayments takes a round trip for each. The triggers
 * run as for any write; 20,000 rows a statement keeps each well within the statement timeout.
 */
async function insertManyPayments(db: Queryable, account: Account, count: number, newest: string): Promise<void> {
  for (let from = 1; from <= count; from += 20_000) {
    await insertPaymentRange(db, account, from, Math.min(count, from + 19_999), newest)
  }
}

async function insertPaymentRange(db: Queryable, account: Account, from: number, to: number, newest: string): Promise<void> {
  await db.query(
    `INSERT INTO payments (id, merchant_id, partner_id, reference_id, currency, fiat_exponent, amount_minor, redirect_enabled,
                           status, created_at, updated_at, expires_at, buyer_account, network, token_unit, token_value,
                           token_symbol, token_name, token_decimals)
     SELECT 'pay_' || lpad(to_hex(i), 32, '0'), $1, $2, 'order-' || lpad(i::text, 6, '0'), 'EUR', 2, 100 + i, false,
            CASE WHEN paid THEN 'succeeded' ELSE 'expired' END, at, at, '2099-01-01T00:00:00Z',
            CASE WHEN paid THEN 'eip155:8453:0x' || lpad(to_hex(i % 1000), 40, '0') END,
            CASE WHEN paid THEN 'eip155:8453' END,
            CASE WHEN paid THEN 'eip155:8453/erc20:0x0000000000000000000000000000000000000001' END,
            CASE WHEN paid THEN 1000000 END, CASE WHEN paid THEN 'USDC' END, CASE WHEN paid THEN 'USDC' END,
            CASE WHEN paid THEN 6 END
       FROM (SELECT i, i % 4 <> 0 AS paid, $3::timestamptz - i * interval '1 second' AS at
               FROM generate_series($4::integer, $5::integer) i) rows`,
    [account.merchantId, account.partnerId, newest, String(from), String(to)],
  )
}

describe('Export CSV of a large set', () => {
  let base: string
  beforeAll(async () => {
    base = await listenOnLoopback(ctx.app)
  })

  it('streams 100,000 rows with bounded memory', { timeout: 120_000 }, async () => {
    const ROWS = 100_000
    // The heap after a full collection is what is still held: this process is both the service and its client.
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as () => void
    const liveHeap = () => {
      gc()
      return process.memoryUsage().heapUsed
    }
    await insertManyPayments(ctx.tdb.db, account, ROWS, '2026-11-20T12:00:00Z')

    const before = liveHeap()
    const response = await fetch(`${base}/dashboard/api/payments/export.csv`, { headers: { cookie } })
    expect(response.status).toBe(200)
    // Lines are counted as they arrive and dropped: only the counts are kept.
    let lines = 0
    let bytes = 0
    let early: number | undefined
    let late: number | undefined
    let opening = ''
    for await (const chunk of response.body ?? new ReadableStream<Uint8Array>()) {
      if (bytes === 0) opening = new TextDecoder().decode(chunk.subarray(0, csvHeader().length))
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++
      bytes += chunk.byteLength
      if (early === undefined && lines > ROWS * 0.1) early = liveHeap()
      if (late === undefined && lines > ROWS * 0.9) late = liveHeap()
    }
    expect(opening).toBe(csvHeader())
    expect(lines).toBe(ROWS + 1)
    expect(early).toBeDefined()
    expect(late).toBeDefined()

    const BOUND = 4 * 1_048_576
    // The bound means something only if holding the CSV, or most of it, would break it many times over.
    expect(bytes).toBeGreaterThan(6 * BOUND)
    // Rows held as they are read would grow the heap by most of the CSV between a tenth and nine tenths.
    expect(Number(late) - Number(early)).toBeLessThan(BOUND)
    // Rows read ahead, or the whole CSV made before the first byte was sent, would be held from the start.
    expect(Number(early) - before).toBeLessThan(BOUND)
    expect(Number(late) - before).toBeLessThan(BOUND)
  })
})

describe('a CSV field', () => {
  it('is quoted when it must be, and never runs as a spreadsheet formula', () => {
    expect(csvField('order, "gift"')).toBe('"order, ""gift"""')
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"')
    expect(csvField('-1')).toBe("'-1")
    expect(csvField(null)).toBe('')
    expect(csvField(true)).toBe('true')
  })

  it('writes amounts in standard units with integers alone', () => {
    expect(standardUnits('1999', 2)).toBe('19.99')
    expect(standardUnits('5', 6)).toBe('0.000005')
    expect(standardUnits('9223372036854775807', 2)).toBe('92233720368547758.07')
    expect(standardUnits('150', 0)).toBe('150')
  })
})
