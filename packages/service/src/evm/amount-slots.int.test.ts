// Unique exact amounts (issue 23, point 2), on the real database: no two payments that may still be paid to
// one address, token and network are quoted the same exact amount, however many are quoted at once; an
// amount comes free a day after its payment's deadline; a token without room keeps its quote and says so.
import { describe, expect, it } from 'vitest'
import { createAccount, useTestDatabase } from '../../test/fixtures.ts'
import { insertPayments } from '../../test/listing-fixtures.ts'
import { amountRoom, SLOT_HELD_AFTER_DEADLINE_MS } from './amount-slots.ts'
import { type NewQuote, paymentQuotes } from './quotes.ts'

const ctx = useTestDatabase()

const DEADLINE = new Date('2026-11-25T10:15:00Z')
const QUOTED_AT = new Date('2026-11-25T10:00:00Z')
// €64.00 at 1.08: 69.12 USDC, in USDC's 6 decimals.
const BASE = 69_120_000n

const usdcQuote = (room = amountRoom(6)): NewQuote => ({
  optionId: 'usdc-8453',
  network: 'eip155:8453',
  token: 'eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  tokenMinor: BASE,
  rate: '1.08',
  rateSource: 'fixed',
  rateAsOf: null,
  recipient: '0x52908400098527886E0F7030069857D2E4169EE7',
  room,
})

async function pendingPayments(count: number) {
  const account = await createAccount(ctx.tdb.db)
  const ids = await insertPayments(
    ctx.tdb.db,
    Array.from({ length: count }, (_, index) => ({
      ...account,
      createdAt: new Date(QUOTED_AT.getTime() + index).toISOString(),
      status: 'pending' as const,
    })),
  )
  return ids.map((id) => ({ id, expiresAt: DEADLINE }))
}

describe('unique exact amounts', () => {
  it('gives 50 payments quoted at once for one merchant 50 distinct amounts: the quote and the fewest units above it', async () => {
    const payments = await pendingPayments(50)
    const quotes = paymentQuotes(ctx.tdb.db)
    const fixed = await Promise.all(payments.map((payment) => quotes.fix(payment, [usdcQuote()], QUOTED_AT)))
    const amounts = fixed.map(([quote]) => quote?.tokenMinor ?? 0n).toSorted((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    expect(amounts).toEqual(Array.from({ length: 50 }, (_, offset) => BASE + BigInt(offset)))
    expect(fixed.every(([quote]) => quote?.uniqueAmount === true)).toBe(true)
  })

  it('never raises an amount by a hundredth of the token or more: 6-decimal USDC by at most 0.009999', () => {
    expect(amountRoom(6)).toBe(10_000n)
    expect(amountRoom(18)).toBe(10n ** 16n)
    expect(amountRoom(2)).toBe(1n)
  })

  it('keeps an amount taken until a day after its payment’s deadline, then lets the next payment have it', async () => {
    const [first, second, third] = await pendingPayments(3)
    const quotes = paymentQuotes(ctx.tdb.db)
    const [a] = await quotes.fix(first!, [usdcQuote()], QUOTED_AT)
    // The first payment ended long ago, but not a day after its deadline: its amount is still its own.
    const almost = new Date(DEADLINE.getTime() + SLOT_HELD_AFTER_DEADLINE_MS - 1)
    const [b] = await quotes.fix(second!, [usdcQuote()], almost)
    const [c] = await quotes.fix(third!, [usdcQuote()], new Date(DEADLINE.getTime() + SLOT_HELD_AFTER_DEADLINE_MS))
    expect([a?.tokenMinor, b?.tokenMinor, c?.tokenMinor]).toEqual([BASE, BASE + 1n, BASE])
  })

  it('keeps the quote of a token with no room below a hundredth, and marks it payable with the reference only', async () => {
    const [first, second] = await pendingPayments(2)
    const quotes = paymentQuotes(ctx.tdb.db)
    const [a] = await quotes.fix(first!, [usdcQuote(1n)], QUOTED_AT)
    const [b] = await quotes.fix(second!, [usdcQuote(1n)], QUOTED_AT)
    expect([a?.tokenMinor, a?.uniqueAmount]).toEqual([BASE, true])
    expect([b?.tokenMinor, b?.uniqueAmount]).toEqual([BASE, false])
  })

  it('fixes one quote and takes one amount when a payment’s options are first asked for twice at once', async () => {
    const [payment] = await pendingPayments(1)
    const quotes = paymentQuotes(ctx.tdb.db)
    const [one, two] = await Promise.all([quotes.fix(payment!, [usdcQuote()], QUOTED_AT), quotes.fix(payment!, [usdcQuote()], QUOTED_AT)])
    expect(one).toEqual(two)
    const slots = await ctx.tdb.db.query('SELECT token_minor FROM quote_amount_slots WHERE payment_id = $1', [payment!.id])
    expect(slots).toHaveLength(1)
  })
})
