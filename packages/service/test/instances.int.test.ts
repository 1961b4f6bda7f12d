import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { buyer, createCheckoutPayment, gatewayCall } from './checkout-fixtures.ts'
import { createAccount, openTestDatabase, testApp, type Account, type TestDatabase } from './fixtures.ts'

describe('two Till instances on one PostgreSQL', () => {
  let tdb: TestDatabase
  let first: FastifyInstance
  let second: FastifyInstance
  let account: Account

  beforeAll(async () => {
    tdb = await openTestDatabase()
    first = await testApp(tdb.db, { config: { sandbox: true } })
    second = await testApp(tdb.db, { config: { sandbox: true } })
  })
  afterAll(async () => {
    await first.close()
    await second.close()
    await tdb.close()
  })
  beforeEach(async () => {
    await tdb.reset()
    account = await createAccount(tdb.db, { sandbox: true })
  })

  const statusOn = async (app: FastifyInstance, paymentId: string) =>
    (await app.inject({ url: `/v1/merchant/payment/${paymentId}/status`, headers: account.headers })).json<{ status: string }>().status

  it('shows a change made by one instance on the other, which had the old status in memory', async () => {
    const payment = await createCheckoutPayment(first, account)
    const { paymentId } = payment
    expect(await statusOn(second, paymentId)).toBe('pending')
    expect(await statusOn(second, paymentId)).toBe('pending')

    const simulated = await first.inject({
      method: 'POST',
      url: `/v1/sandbox/payments/${paymentId}/simulate`,
      headers: account.headers,
      payload: { outcome: 'succeeded' },
    })
    expect(simulated.statusCode).toBe(200)
    // The writer reads its own write at once; the other instance once PostgreSQL's NOTIFY has arrived, which
    // a page long-polling that instance is woken by (it may hear processing first, then ask again).
    expect(await statusOn(first, paymentId)).toBe('succeeded')
    let heard = 'pending'
    while (heard !== 'succeeded')
      heard = (await gatewayCall(second, payment, `/status?after=${heard}&waitMs=20000`)).json<{ status: string }>().status
    expect(await statusOn(second, paymentId)).toBe('succeeded')
  })

  it('wakes a checkout page long-polling one instance when the buyer pays through the other', async () => {
    const payment = await createCheckoutPayment(first, account)
    // The page's token works on every instance: they share the signing key through the database.
    const waiting = gatewayCall(second, payment, '/status?after=pending&waitMs=20000')
    const paid = await gatewayCall(first, payment, '/confirm', {
      method: 'POST',
      payload: { walletId: 'sandbox_pays', optionId: 'usdc-base', account: buyer() },
    })
    expect(paid.json()).toMatchObject({ status: 'succeeded' })
    // It answers at the first change it hears of (processing, or already succeeded); the page asks again.
    const heard = (await waiting).json<{ status: string }>()
    expect(['processing', 'succeeded']).toContain(heard.status)
    const next = await gatewayCall(
      second,
      payment,
      `/status?after=${heard.status === 'processing' ? 'processing' : 'pending'}&waitMs=20000`,
    )
    expect(next.json()).toMatchObject({ status: 'succeeded', isFinal: true })
  })
})
