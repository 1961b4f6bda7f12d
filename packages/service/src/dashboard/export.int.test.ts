// The Payments page's "Export CSV": the whole filtered set, every row and not just a page, streamed a batch
// at a time, with the listing's fields flattened and amounts in minor and standard units.
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { insertPayments } from '../../test/listing-fixtures.ts'
import { CSV_COLUMNS, csvField, standardUnits } from './csv.ts'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'

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
