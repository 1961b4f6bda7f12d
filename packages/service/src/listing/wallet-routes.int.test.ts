import { ErrorBody, PaymentListResponse } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { buyer, createCheckoutPayment, gatewayCall } from '../../test/checkout-fixtures.ts'
import { type Account, createAccount, createBody, testClock, useTestApp } from '../../test/fixtures.ts'
import { ensureSandboxAccounts, type SandboxAccounts } from '../sandbox/seed.ts'
import { accountStore } from '../accounts/store.ts'

// A wallet's own payment history: what a wallet app's client paid through it, recorded when it pays and
// listed with App-Id + Client-Id (spec 5).
const clock = testClock()
const ctx = useTestApp({ clock, config: { sandbox: true } })

let sandbox: SandboxAccounts
let account: Account
beforeEach(async () => {
  sandbox = await ensureSandboxAccounts(ctx.tdb.db, clock)
  account = { ...sandbox, headers: { 'api-key': sandbox.apiKey, 'merchant-id': sandbox.merchantId } }
})

async function newPayment() {
  const created = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody() })
  return created.json<{ paymentId: string }>().paymentId
}

async function walletList(clientId: string, appId = sandbox.appId) {
  const response = await ctx.app.inject({ url: '/v1/payments', headers: { 'app-id': appId, 'client-id': clientId } })
  expect(response.statusCode, response.body).toBe(200)
  return PaymentListResponse.parse(response.json())
}

describe('the wallet that paid', () => {
  it('is recorded by the simulate endpoint, and the payment is listed to that client alone', async () => {
    const paid = await newPayment()
    const declined = await newPayment()
    await newPayment()
    for (const [paymentId, outcome] of [
      [paid, 'succeeded'],
      [declined, 'failed'],
    ]) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `/v1/sandbox/payments/${paymentId}/simulate`,
        headers: account.headers,
        payload: { outcome, wallet: { appId: sandbox.appId, clientId: 'client-a' } },
      })
      expect(response.statusCode, response.body).toBe(200)
    }
    const mine = await walletList('client-a')
    expect(mine.data.map((p) => p.paymentId).sort()).toEqual([paid, declined].sort())
    expect(mine.stats.totalTransactions).toBe(2)
    expect((await walletList('client-b')).data).toEqual([])
  })

  it('must be an app of the payment’s partner', async () => {
    const other = await createAccount(ctx.tdb.db)
    const foreign = await accountStore(ctx.tdb.db).createApp({ partnerId: other.partnerId, name: 'Theirs', now: clock.now() })
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/v1/sandbox/payments/${await newPayment()}/simulate`,
      headers: account.headers,
      payload: { outcome: 'succeeded', wallet: { appId: foreign.id, clientId: 'client-a' } },
    })
    expect(response.statusCode).toBe(400)
    expect(ErrorBody.parse(response.json()).issues).toEqual([
      { field: 'wallet.appId', message: expect.stringContaining('till app create') },
    ])
  })

  it('is the sandbox app and the browser’s client id when the checkout page’s test wallet pays', async () => {
    const payment = await createCheckoutPayment(ctx.app, account)
    const confirmed = await gatewayCall(ctx.app, payment, '/confirm', {
      method: 'POST',
      payload: { walletId: 'sandbox_pays', optionId: 'usdc-base', account: buyer(), clientId: 'browser-1' },
    })
    expect(confirmed.statusCode, confirmed.body).toBe(200)
    const listed = await walletList('browser-1')
    expect(listed.data.map((p) => p.paymentId)).toEqual([payment.paymentId])
    expect(listed.data[0]).toMatchObject({ status: 'succeeded', buyer: { accountCaip10: buyer() } })
    expect(listed.stats).toMatchObject({ totalTransactions: 1, totalCustomers: 1 })
  })
})
