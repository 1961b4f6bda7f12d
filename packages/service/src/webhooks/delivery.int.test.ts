import {
  ErrorBody,
  type PaymentWebhookEvent,
  WebhookDeliveryList,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
  WebhookEvent,
} from '@till/contract'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Account, createAccount } from '../../test/fixtures.ts'
import { handDispatcher, registerEndpoint, sandboxPayment, useWebhookApp } from '../../test/webhook-fixtures.ts'
import { startWebhookReceiver } from '../../test/webhook-receiver.ts'
import type { Address } from '../evm/ids.ts'
import { unappliedTransfers } from '../evm/unapplied.ts'

// Sandbox mode: the receiver is HTTPS on 127.0.0.1 (as hooks.corner-shop.com, through the injected lookup).
const receiver = await startWebhookReceiver()
afterAll(() => receiver.close())
const { clock, outbound, ctx } = useWebhookApp(receiver)

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
  receiver.received.length = 0
  receiver.answer()
})

const dispatcher = () => handDispatcher(ctx.tdb.db, clock, { outbound })

const register = (body: Record<string, unknown> = { url: receiver.url() }) => registerEndpoint(ctx.app, account, body)

const pay = (outcomes: string[]) => sandboxPayment(ctx.app, account, outcomes)

async function deliveries(endpointId: string) {
  const response = await ctx.app.inject({ url: `/v1/webhook-endpoints/${endpointId}/deliveries`, headers: account.headers })
  expect(response.statusCode, response.body).toBe(200)
  return WebhookDeliveryList.parse(response.json()).data
}

/** Verifies a delivery as a receiver would with the reference library, at the test clock's now. */
const verified = (secret: string, index = 0) => {
  const delivery = receiver.received[index]
  if (!delivery) throw new Error(`no delivery ${index}`)
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(clock.now())
  try {
    return WebhookEvent.parse(new Webhook(secret).verify(delivery.body, delivery.headers))
  } finally {
    vi.useRealTimers()
  }
}

describe('webhook endpoints', () => {
  it('shows the signing secret once, keeps it sealed, and lists the endpoint without it', async () => {
    const { endpoint, secret } = await register()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    expect(endpoint).toMatchObject({
      url: receiver.url(),
      status: 'enabled',
      disabledReason: null,
      events: expect.arrayContaining(['payment.succeeded']),
    })
    const listed = await ctx.app.inject({ url: '/v1/webhook-endpoints', headers: account.headers })
    expect(WebhookEndpointList.parse(listed.json()).data).toEqual([endpoint])
    expect(listed.body).not.toContain(secret)
    const [row] = await ctx.tdb.db.query<{ secret_sealed: Uint8Array }>('SELECT secret_sealed FROM webhook_endpoints')
    expect(Buffer.from(row?.secret_sealed ?? []).toString('latin1')).not.toContain(secret.slice(6, 20))
  })

  it('refuses a URL that is not HTTPS or not public, naming the address', async () => {
    for (const [url, message] of [
      ['http://hooks.corner-shop.com/webhooks', 'must be an absolute https:// URL'],
      ['https://10.0.0.1/webhooks', '10.0.0.1 is not a public address (private)'],
      ['https://169.254.169.254/latest', '169.254.169.254 is not a public address (linkLocal)'],
      ['https://intranet/webhooks', 'intranet is not a public host name'],
    ] as const) {
      const response = await ctx.app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: account.headers, payload: { url } })
      expect(response.statusCode, url).toBe(400)
      expect(ErrorBody.parse(response.json()).issues).toEqual([{ field: 'url', message: expect.stringContaining(message) }])
    }
  })

  it("answers 404 for another merchant's endpoint", async () => {
    const { endpoint } = await register()
    const other = await createAccount(ctx.tdb.db, { sandbox: true })
    for (const [method, url] of [
      ['GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`],
      ['POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`],
      ['DELETE', `/v1/webhook-endpoints/${endpoint.id}`],
    ] as const) {
      const response = await ctx.app.inject({ method, url, headers: other.headers })
      expect(response.statusCode, url).toBe(404)
      expect(ErrorBody.parse(response.json()).code).toBe('webhook_endpoint_not_found')
    }
  })
})

const BUYER = '0x52908400098527886e0f7030069857d2e4169ee7' as Address
const SHOP = '0x8ba1f109551bd432803012645ac136ddd64dba72' as Address
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address

/** Records an unapplied transfer to the account's merchant, as the rail or the chain watcher does. */
async function recordUnapplied(input: { paymentId: string | null; reason: 'payment_expired' | 'no_matching_payment'; hash?: string }) {
  const txHash = input.hash ?? `0x${'ab'.repeat(32)}`
  const recorded = await unappliedTransfers(ctx.tdb.db).record(
    {
      network: 'eip155:8453',
      txHash,
      logIndex: input.paymentId === null ? 7 : null,
      merchantId: account.merchantId,
      paymentId: input.paymentId,
      reason: input.reason,
      sender: BUYER,
      recipient: SHOP,
      token: USDC,
      amount: 12_345_678n,
      blockNumber: input.paymentId === null ? 18_000_000n : null,
    },
    clock.now(),
  )
  expect(recorded).toBe(true)
  return txHash
}

describe('transfer.unapplied', () => {
  it('is sent signed when an unapplied transfer is recorded: the transfer as the API lists it, with its payment or null', async () => {
    const { endpoint, secret } = await register()
    expect(endpoint.events).toContain('transfer.unapplied')
    const paymentId = await pay(['failed'])
    await (await dispatcher()).runOnce()
    receiver.received.length = 0
    const matched = await recordUnapplied({ paymentId, reason: 'payment_expired', hash: `0x${'cd'.repeat(32)}` })
    const stray = await recordUnapplied({ paymentId: null, reason: 'no_matching_payment' })
    // Recorded again (the page posted it, the watcher saw it): one event still.
    expect(
      await unappliedTransfers(ctx.tdb.db).record(
        {
          network: 'eip155:8453',
          txHash: stray,
          logIndex: 7,
          merchantId: account.merchantId,
          paymentId: null,
          reason: 'no_matching_payment',
          sender: BUYER,
          recipient: SHOP,
          token: USDC,
          amount: 12_345_678n,
          blockNumber: 18_000_000n,
        },
        clock.now(),
      ),
    ).toBe(false)
    expect(await (await dispatcher()).runOnce()).toBe(2)
    const events = receiver.received.map((_, i) => verified(secret, i))
    expect(events.map((event) => event.type)).toEqual(['transfer.unapplied', 'transfer.unapplied'])
    const byHash = new Map(events.map((event) => [event.type === 'transfer.unapplied' ? event.data.transaction.hash : '', event]))
    const common = {
      from: 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7',
      to: 'eip155:8453:0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      tokenAmount: { unit: `caip19/eip155:8453/erc20:${USDC}`, value: '12345678', display: null },
      recordedAt: clock.now().toISOString(),
    }
    expect(byHash.get(stray)).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'transfer.unapplied',
      createdAt: clock.now().toISOString(),
      data: {
        ...common,
        id: `eip155:8453/${stray}`,
        transaction: { networkId: 'eip155:8453', hash: stray, logIndex: 7 },
        reason: 'no_matching_payment',
        paymentId: null,
        payment: null,
      },
    })
    expect(byHash.get(matched)).toMatchObject({
      data: {
        ...common,
        id: `eip155:8453/${matched}`,
        transaction: { networkId: 'eip155:8453', hash: matched, logIndex: null },
        reason: 'payment_expired',
        paymentId,
        payment: { paymentId, status: 'failed', merchant: { id: account.merchantId } },
      },
    })
    // The deliveries list shows the same event.
    const listed = await deliveries(endpoint.id)
    expect(listed.map((delivery) => delivery.event).filter((event) => event.type === 'transfer.unapplied')).toEqual(
      expect.arrayContaining(events),
    )
  })
})

describe('deliveries', () => {
  it('sends each status change as a signed event carrying the payment as the listing shows it', async () => {
    const { secret } = await register()
    const paymentId = await pay(['processing', 'succeeded'])
    expect(await (await dispatcher()).runOnce()).toBe(2)
    const events = receiver.received
      .map((_, i) => verified(secret, i))
      .filter((event): event is PaymentWebhookEvent => event.type !== 'transfer.unapplied')
    expect(events.map((event) => event.type).sort()).toEqual(['payment.processing', 'payment.succeeded'])
    const succeeded = events.find((event) => event.type === 'payment.succeeded')
    expect(succeeded?.data).toMatchObject({ paymentId, status: 'succeeded', isTerminal: true, merchant: { id: account.merchantId } })
    expect(succeeded?.data.referenceId).toMatch(/^order-/)
    expect(events.find((event) => event.type === 'payment.processing')?.data.status).toBe('processing')
    expect(receiver.received[0]?.headers['webhook-id']).toBe(events[0]?.id)
    expect(await (await dispatcher()).runOnce()).toBe(0)
  })

  it('sends only the event types the endpoint asked for', async () => {
    await register({ url: receiver.url(), events: ['payment.failed'] })
    await pay(['processing', 'succeeded'])
    await pay(['failed'])
    await recordUnapplied({ paymentId: null, reason: 'no_matching_payment' })
    await (await dispatcher()).runOnce()
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['payment.failed'])
  })

  it('retries on the reference schedule with jitter, records every attempt, and stops at the first 2xx', async () => {
    const { endpoint } = await register()
    receiver.answer(500, 503)
    await pay(['failed'])
    const run = await dispatcher()
    await run.runOnce()
    let [delivery] = await deliveries(endpoint.id)
    expect(delivery?.status).toBe('pending')
    expect(delivery?.nextAttemptAt).toBe(new Date(clock.now().getTime() + 5_000).toISOString())
    clock.advance(4_999)
    expect(await run.runOnce()).toBe(0)
    clock.advance(1)
    expect(await run.runOnce()).toBe(1)
    ;[delivery] = await deliveries(endpoint.id)
    expect(delivery?.nextAttemptAt).toBe(new Date(clock.now().getTime() + 300_000).toISOString())
    clock.advance(300_000)
    await run.runOnce()
    ;[delivery] = await deliveries(endpoint.id)
    expect(delivery?.status).toBe('delivered')
    expect(delivery?.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 503, 200])
    expect(delivery?.attempts.every((attempt) => attempt.latencyMs >= 0)).toBe(true)
    expect(receiver.received).toHaveLength(3)
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1)
  })

  it('disables an endpoint whose every attempt failed; re-enabled, a delivery can be sent again by hand', async () => {
    const { endpoint, secret } = await register()
    receiver.answer(...Array(8).fill(500))
    await pay(['failed'])
    const run = await dispatcher()
    await run.runOnce()
    for (const seconds of [5, 300, 1800, 7200, 18_000, 36_000, 36_000]) {
      clock.advance(seconds * 1100)
      await run.runOnce()
    }
    const [delivery] = await deliveries(endpoint.id)
    expect(delivery?.status).toBe('failed')
    expect(delivery?.attempts).toHaveLength(8)
    const listed = WebhookEndpointList.parse((await ctx.app.inject({ url: '/v1/webhook-endpoints', headers: account.headers })).json())
    expect(listed.data[0]).toMatchObject({ status: 'disabled', disabledReason: expect.stringContaining('HTTP 500') })
    // A disabled endpoint gets nothing new: its events are held until it is enabled.
    await pay(['failed'])
    expect(await run.runOnce()).toBe(0)
    expect((await deliveries(endpoint.id))[0]?.status).toBe('held')

    const enabled = await ctx.app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/enable`, headers: account.headers })
    expect(enabled.json()).toMatchObject({ endpoint: { status: 'enabled', disabledReason: null } })
    const again = await ctx.app.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${endpoint.id}/deliveries/${delivery?.id}/redeliver`,
      headers: account.headers,
    })
    expect(again.statusCode).toBe(202)
    // The held event and the one sent again by hand.
    expect(await run.runOnce()).toBe(2)
    expect([verified(secret, 8).id, verified(secret, 9).id]).toContain(delivery?.event.id)
    expect((await deliveries(endpoint.id)).map((d) => d.status)).toEqual(['delivered', 'delivered'])
  })

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const { endpoint, secret: old } = await register()
    const rotated = await ctx.app.inject({
      method: 'POST',
      url: `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`,
      headers: account.headers,
    })
    const { secret } = WebhookEndpointWithSecret.parse(rotated.json())
    expect(secret).not.toBe(old)
    await pay(['failed'])
    await (await dispatcher()).runOnce()
    expect(receiver.received[0]?.headers['webhook-signature']?.split(' ')).toHaveLength(2)
    expect(verified(old).type).toBe('payment.failed')
    expect(verified(secret).type).toBe('payment.failed')

    clock.advance(24 * 3600 * 1000 + 1)
    await pay(['failed'])
    await (await dispatcher()).runOnce()
    expect(receiver.received[1]?.headers['webhook-signature']?.split(' ')).toHaveLength(1)
    expect(() => verified(old, 1)).toThrow()
    expect(verified(secret, 1).type).toBe('payment.failed')
  })

  it('writes the event in the transaction of the status change: none if it rolls back, one a new instance sends if it commits', async () => {
    await register()
    const paymentId = await pay([])
    await expect(
      ctx.tdb.db.transaction(async (tx) => {
        await tx.query(`UPDATE payments SET status = 'failed' WHERE id = $1`, [paymentId])
        throw new Error('crash before commit')
      }),
    ).rejects.toThrow('crash before commit')
    expect(await ctx.tdb.db.query('SELECT 1 FROM webhook_events')).toHaveLength(0)
    await ctx.tdb.db.query(`UPDATE payments SET status = 'failed' WHERE id = $1`, [paymentId])
    // The process that made the change is gone before sending anything: another instance sends it.
    expect(await (await dispatcher()).runOnce()).toBe(1)
    expect(JSON.parse(receiver.received[0]?.body ?? '{}').data.paymentId).toBe(paymentId)
  })

  it('is sent once when two instances dispatch at the same time', async () => {
    await register()
    for (let i = 0; i < 6; i++) await pay(['processing', 'succeeded'])
    const [a, b] = await Promise.all([dispatcher(), dispatcher()])
    const [sentA, sentB] = await Promise.all([a.runOnce(), b.runOnce()])
    expect(sentA + sentB).toBe(12)
    expect(receiver.received).toHaveLength(12)
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(12)
  })

  it('stops delivering to a deleted endpoint', async () => {
    const { endpoint } = await register()
    receiver.answer(500)
    await pay(['failed'])
    const run = await dispatcher()
    await run.runOnce()
    const removed = await ctx.app.inject({ method: 'DELETE', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: account.headers })
    expect(removed.statusCode).toBe(204)
    clock.advance(60_000)
    await pay(['failed'])
    expect(await run.runOnce()).toBe(0)
    expect(receiver.received).toHaveLength(1)
  })

  it('never sends a delivery whose endpoint was deleted or disabled meanwhile, even one left pending', async () => {
    const { endpoint } = await register()
    await pay(['failed'])
    // As if the change had raced the endpoint's removal: its delivery is still pending.
    await ctx.tdb.db.query(`UPDATE webhook_endpoints SET status = 'disabled' WHERE id = $1`, [endpoint.id])
    expect(await (await dispatcher()).runOnce()).toBe(0)
    await ctx.tdb.db.query(`UPDATE webhook_endpoints SET status = 'enabled', deleted_at = now() WHERE id = $1`, [endpoint.id])
    expect(await (await dispatcher()).runOnce()).toBe(0)
    expect(receiver.received).toHaveLength(0)
  })

  it('counts an attempt Till cannot prepare as failed, so the retry schedule applies instead of an endless lease', async () => {
    const { endpoint } = await register()
    await pay(['failed'])
    await ctx.tdb.db.query(`UPDATE webhook_endpoints SET secret_sealed = '\\x00' WHERE id = $1`, [endpoint.id])
    expect(await (await dispatcher()).runOnce()).toBe(1)
    const [delivery] = await deliveries(endpoint.id)
    expect(delivery?.status).toBe('pending')
    expect(delivery?.attempts).toEqual([
      expect.objectContaining({ statusCode: null, error: expect.stringContaining('Till could not prepare the delivery') }),
    ])
    expect(delivery?.nextAttemptAt).toBe(new Date(clock.now().getTime() + 5_000).toISOString())
    expect(receiver.received).toHaveLength(0)
  })
})
