// payments.list and merchantPayments.list against the real service: one page when awaited, every page
// when iterated, as stripe-node's auto-pagination reads.
import { type SandboxTill, startSandboxTill } from './till.test-helper.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TillClient } from './client.ts'
import { TillInvalidRequestError } from './errors.ts'

let sandbox: SandboxTill
let till: TillClient
const created: string[] = []

beforeAll(async () => {
  sandbox = await startSandboxTill()
  till = new TillClient({ baseUrl: sandbox.baseUrl, apiKey: sandbox.apiKey, merchantId: sandbox.merchantId })
  for (let i = 0; i < 5; i++) {
    const payment = await till.merchantPayments.create({
      amount: { unit: 'iso4217/JPY', value: String(1000 + i) },
      referenceId: `list-${i}`,
    })
    created.push(payment.paymentId)
    if (i % 2 === 0) await till.sandbox.simulate(payment.paymentId, 'succeeded')
  }
})

afterAll(async () => {
  await till?.close()
  await sandbox?.stop()
})

describe('payments.list', () => {
  it('awaited, gives one typed page with stats over the whole query', async () => {
    const page = await till.payments.list({ limit: 2, status: ['succeeded'] })
    expect(page.data).toHaveLength(2)
    expect(page.nextCursor).not.toBeNull()
    expect(page.stats).toEqual({ totalRevenue: [{ currency: 'JPY', amount: 3006 }], totalTransactions: 3, totalCustomers: 3 })
    expect(page.lastResponse.payVersion).toBe('2026-02-18')
  })

  it('iterated, follows nextCursor through every page in order', async () => {
    const seen: string[] = []
    for await (const payment of till.payments.list({ limit: 2, sortBy: 'amount', sortDir: 'asc', referenceId: 'list-' })) {
      seen.push(payment.paymentId)
    }
    expect(seen).toEqual(created)
  })

  it('stops fetching when the loop breaks', async () => {
    const pages: number[] = []
    for await (const page of till.payments.list({ limit: 1, referenceId: 'list-' }).pages()) {
      pages.push(page.data.length)
      if (pages.length === 2) break
    }
    expect(pages).toEqual([1, 1])
  })

  it('sends Dates as RFC 3339, and lists as repeated or comma-joined parameters', async () => {
    const page = await till.payments.list({
      startTs: new Date(Date.now() - 3_600_000),
      network: ['eip155:8453', 'eip155:1'],
      status: ['succeeded', 'processing'],
      token_symbol: 'USDC',
      merchantId: [sandbox.merchantId],
    })
    expect(page.stats.totalTransactions).toBe(3)
  })

  it('rejects a bad query with the server’s issues', async () => {
    const error = await till.payments.list({ limit: 500 }).then(
      () => undefined,
      (reason: unknown) => reason,
    )
    expect(error).toBeInstanceOf(TillInvalidRequestError)
    expect(error).toMatchObject({ code: 'params_validation', issues: [{ field: 'limit' }] })
  })
})

describe('merchantPayments.list', () => {
  it('lists the client’s merchant’s payments', async () => {
    const all: string[] = []
    for await (const payment of till.merchantPayments.list({ limit: 3, sortDir: 'asc', referenceId: 'list-' })) all.push(payment.paymentId)
    expect(all).toEqual(created)
  })
})
