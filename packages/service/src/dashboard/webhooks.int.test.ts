// The Webhooks page's data (issue 26, point 3): a merchant's endpoints, a signed test event, every attempt
// with the request as it was sent, filters, redelivery, and the changes admins and owners make.
import { WebhookEvent } from '@till/contract'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount } from '../../test/fixtures.ts'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'
import { handDispatcher, useWebhookApp } from '../../test/webhook-fixtures.ts'
import { startWebhookReceiver } from '../../test/webhook-receiver.ts'

const receiver = await startWebhookReceiver()
afterAll(() => receiver.close())
const { clock, outbound, ctx } = useWebhookApp(receiver)

let account: Account
beforeEach(async () => {
  // Now, as the receiver's signature check reads the real clock.
  clock.set(new Date())
  account = await createAccount(ctx.tdb.db, { sandbox: true })
  receiver.received.length = 0
})

type Attempt = { statusCode: number | null; error: string | null; request: { headers: Record<string, string>; body: string } | null }
type Delivery = { id: string; status: string; event: { type: string }; attempts: Attempt[] }
type Endpoint = { id: string; status: string; lastDelivery: { at: string; status: string } | null }

describe('the Webhooks page', () => {
  it('adds an endpoint, sends it a signed test event that standardwebhooks verifies, and shows the request as sent', async () => {
    const admin = await dashboardMember(ctx, clock, account, 'admin')
    const base = `/dashboard/api/merchants/${account.merchantId}/webhooks`
    const made = await admin.post(base, { url: receiver.url() })
    expect(made.statusCode).toBe(201)
    const { endpoint, secret } = made.json<{ endpoint: { id: string }; secret: string }>()
    expect((await admin.get(base)).json<{ data: Endpoint[] }>().data).toEqual([
      expect.objectContaining({ id: endpoint.id, lastDelivery: null }),
    ])

    const sent = await admin.post(`${base}/${endpoint.id}/test`)
    expect(sent.statusCode).toBe(202)
    expect(await (await handDispatcher(ctx.tdb.db, clock, { outbound })).runOnce()).toBe(1)
    const [received] = receiver.received
    const event = WebhookEvent.parse(new Webhook(secret).verify(received?.body ?? '', received?.headers ?? {}))
    expect(event).toMatchObject({ type: 'ping', data: { paymentId: null, endpointId: endpoint.id, merchantId: account.merchantId } })

    const log = (await admin.get(`${base}/${endpoint.id}/deliveries`)).json<{ data: Delivery[] }>().data
    expect(log).toEqual([expect.objectContaining({ status: 'delivered', event: expect.objectContaining({ type: 'ping' }) })])
    const request = log[0]?.attempts[0]?.request
    expect(request?.body).toBe(received?.body)
    expect(request?.headers['webhook-signature']).toBe(received?.headers['webhook-signature'])
    expect((await admin.get(base)).json<{ data: Endpoint[] }>().data[0]?.lastDelivery).toMatchObject({ status: 'delivered' })
  })

  it('filters failed deliveries and one event type, and redelivers a failed one', async () => {
    const admin = await dashboardMember(ctx, clock, account, 'admin')
    const base = `/dashboard/api/merchants/${account.merchantId}/webhooks`
    const { endpoint } = (await admin.post(base, { url: receiver.url() })).json<{ endpoint: { id: string } }>()
    const dispatcher = await handDispatcher(ctx.tdb.db, clock, { outbound })
    await admin.post(`${base}/${endpoint.id}/test`)
    await dispatcher.runOnce()
    receiver.answer(500)
    const failing = (await admin.post(`${base}/${endpoint.id}/test`)).json<{ deliveryId: string }>().deliveryId
    await dispatcher.runOnce()

    const failed = (await admin.get(`${base}/${endpoint.id}/deliveries?failed=true`)).json<{ data: Delivery[] }>().data
    expect(failed.map((delivery) => [delivery.id, delivery.attempts.map((attempt) => attempt.statusCode)])).toEqual([[failing, [500]]])
    expect((await admin.get(`${base}/${endpoint.id}/deliveries?type=payment.succeeded`)).json<{ data: Delivery[] }>().data).toEqual([])
    expect((await admin.get(`${base}/${endpoint.id}/deliveries?type=ping`)).json<{ data: Delivery[] }>().data).toHaveLength(2)
    const bad = await admin.get(`${base}/${endpoint.id}/deliveries?failed=maybe`)
    expect([bad.statusCode, bad.json<{ issues: { field: string }[] }>().issues[0]?.field]).toEqual([400, 'failed'])

    expect((await admin.post(`${base}/${endpoint.id}/deliveries/${failing}/redeliver`)).statusCode).toBe(202)
    await dispatcher.runOnce()
    const again = (await admin.get(`${base}/${endpoint.id}/deliveries?failed=true`)).json<{ data: Delivery[] }>().data
    expect(again[0]?.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 200])
  })

  it('disables, enables, rotates and deletes for admins and owners, logged; viewers and other merchants’ users cannot', async () => {
    const owner = await dashboardMember(ctx, clock, account, 'owner')
    const base = `/dashboard/api/merchants/${account.merchantId}/webhooks`
    const { endpoint, secret } = (await owner.post(base, { url: receiver.url() })).json<{ endpoint: { id: string }; secret: string }>()
    expect((await owner.post(`${base}/${endpoint.id}/disable`)).json()).toMatchObject({
      endpoint: { status: 'disabled', disabledReason: expect.stringMatching(/^disabled by /) },
    })
    expect((await owner.post(`${base}/${endpoint.id}/enable`)).json()).toMatchObject({ endpoint: { status: 'enabled' } })
    const rotated = (await owner.post(`${base}/${endpoint.id}/rotate-secret`)).json<{ secret: string }>()
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(secret)

    const viewer = await dashboardMember(ctx, clock, account, 'viewer')
    for (const path of ['disable', 'enable', 'rotate-secret', 'delete', 'test']) {
      const refused = await viewer.post(`${base}/${endpoint.id}/${path}`)
      expect([refused.statusCode, refused.json<{ code: string }>().code], path).toEqual([403, 'role_forbidden'])
    }
    const stranger = await createAccount(ctx.tdb.db, { sandbox: true })
    expect((await owner.get(`/dashboard/api/merchants/${stranger.merchantId}/webhooks`)).statusCode).toBe(404)

    expect((await owner.post(`${base}/${endpoint.id}/delete`)).json()).toEqual({ id: endpoint.id, status: 'deleted' })
    expect((await owner.get(base)).json()).toMatchObject({ data: [] })
    const log = (await owner.get('/dashboard/api/audit-log')).json<{ data: { action: string }[] }>()
    expect(
      log.data
        .map((entry) => entry.action)
        .filter((action) => action.startsWith('webhook_'))
        .sort(),
    ).toEqual([
      'webhook_endpoint_created',
      'webhook_endpoint_deleted',
      'webhook_endpoint_disabled',
      'webhook_endpoint_enabled',
      'webhook_secret_rotated',
    ])
  })
})
