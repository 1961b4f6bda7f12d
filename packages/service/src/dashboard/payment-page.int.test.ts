// A payment's dashboard page (issue 25, point 6): the option it was paid with, its webhook attempts with
// their status and latency, and "Redeliver", which sends a delivery again for admins and owners only.
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount } from '../../test/fixtures.ts'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'
import { handDispatcher, registerEndpoint, sandboxPayment, useWebhookApp } from '../../test/webhook-fixtures.ts'
import { startWebhookReceiver } from '../../test/webhook-receiver.ts'

const receiver = await startWebhookReceiver()
afterAll(() => receiver.close())
const { clock, outbound, ctx } = useWebhookApp(receiver)

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

type Attempt = { kind: 'webhook_attempt'; deliveryId: string; eventType: string; statusCode: number | null; latencyMs: number }
type Page = {
  paid: { network: string; token: { symbol: string; decimals: number; amount: string }; buyer: string; transactionHash: string } | null
  timeline: ({ kind: string } & Partial<Attempt>)[]
}

describe('a payment’s page', () => {
  it('shows the option paid: token, network, exact amount, buyer and transaction', async () => {
    const paid = await sandboxPayment(ctx.app, account, ['succeeded'])
    const open = await sandboxPayment(ctx.app, account, [])
    const viewer = await dashboardMember(ctx, clock, account, 'viewer')
    const page = (await viewer.get(`/dashboard/api/payments/${paid}`)).json<Page>()
    const listed = (await ctx.app.inject({ url: `/v1/payments?limit=10`, headers: { 'api-key': account.apiKey } }))
      .json<{
        data: { paymentId: string; tokenAmount: { value: string }; transaction: { hash: string }; buyer: { accountCaip10: string } }[]
      }>()
      .data.find((payment) => payment.paymentId === paid)
    expect(page.paid).toMatchObject({
      token: { amount: listed?.tokenAmount.value, decimals: expect.any(Number), symbol: expect.any(String) },
      buyer: listed?.buyer.accountCaip10,
      transactionHash: listed?.transaction.hash,
    })
    expect((await viewer.get(`/dashboard/api/payments/${open}`)).json<Page>().paid).toBeNull()
  })

  it('lists every webhook attempt with its status and latency, and "Redeliver" sends one again', async () => {
    await registerEndpoint(ctx.app, account, { url: receiver.url() })
    receiver.answer(500)
    const paymentId = await sandboxPayment(ctx.app, account, ['failed'])
    const dispatcher = await handDispatcher(ctx.tdb.db, clock, { outbound })
    expect(await dispatcher.runOnce()).toBe(1)
    const owner = await dashboardMember(ctx, clock, account, 'owner')
    const attempts = async () =>
      (await owner.get(`/dashboard/api/payments/${paymentId}`)).json<Page>().timeline.filter((entry) => entry.kind === 'webhook_attempt')
    const [first] = await attempts()
    expect(first).toMatchObject({ eventType: 'payment.failed', statusCode: 500, latencyMs: expect.any(Number) })
    const deliveryId = String(first?.deliveryId)

    const viewer = await dashboardMember(ctx, clock, account, 'viewer')
    const refused = await viewer.post(`/dashboard/api/payments/${paymentId}/deliveries/${deliveryId}/redeliver`)
    expect([refused.statusCode, refused.json<{ code: string }>().code]).toEqual([403, 'role_forbidden'])
    const other = await sandboxPayment(ctx.app, account, [])
    const elsewhere = await owner.post(`/dashboard/api/payments/${other}/deliveries/${deliveryId}/redeliver`)
    expect([elsewhere.statusCode, elsewhere.json<{ code: string }>().code]).toEqual([404, 'not_found'])
    const nonsense = await owner.post(`/dashboard/api/payments/${paymentId}/deliveries/not-a-number/redeliver`)
    expect(nonsense.statusCode).toBe(404)

    receiver.answer(200)
    const redelivered = await owner.post(`/dashboard/api/payments/${paymentId}/deliveries/${deliveryId}/redeliver`)
    expect([redelivered.statusCode, redelivered.json()]).toEqual([202, { deliveryId, status: 'pending' }])
    expect(await dispatcher.runOnce()).toBe(1)
    expect((await attempts()).map((attempt) => attempt.statusCode)).toEqual([500, 200])
    const log = (await owner.get('/dashboard/api/audit-log')).json<{ data: { action: string; target: string }[] }>()
    expect(log.data.filter((entry) => entry.action === 'webhook_redelivered')).toEqual([
      expect.objectContaining({ action: 'webhook_redelivered', target: deliveryId }),
    ])
  })
})
