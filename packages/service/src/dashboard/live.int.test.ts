// The Payments page's live updates (issue 25, point 5; ADR 33): server-sent events over real HTTP, one for
// each payment made or changed that the signed-in user may see, and nothing about anyone else's.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { accountStore } from '../accounts/store.ts'
import { createAccount, createBody, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { dashboardMember, listenOnLoopback } from '../../test/dashboard-fixtures.ts'

const clock = testClock()
const ctx = useTestApp({ clock, config: { sandbox: true } })
let base: string
beforeAll(async () => {
  base = await listenOnLoopback(ctx.app)
})
let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

/** The stream's events, one at a time, as EventSource would hand them to the page. */
async function follow(cookie: string) {
  const controller = new AbortController()
  const response = await fetch(`${base}/dashboard/api/payments/live`, { headers: { cookie }, signal: controller.signal })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
  const reader = (response.body ?? new ReadableStream()).pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  return {
    async next(): Promise<{ event: string; data: Record<string, unknown> }> {
      for (;;) {
        const end = buffered.indexOf('\n\n')
        if (end >= 0) {
          const block = buffered.slice(0, end)
          buffered = buffered.slice(end + 2)
          const event = /^event: (.*)$/m.exec(block)?.[1]
          const data = /^data: (.*)$/m.exec(block)?.[1]
          if (event && data) return { event, data: JSON.parse(data) }
          continue
        }
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        buffered += value
      }
    },
    close: () => controller.abort(),
  }
}

async function pay(merchantId: string, apiKey = account.apiKey): Promise<string> {
  const created = await ctx.app.inject({
    method: 'POST',
    url: '/v1/merchant/payment',
    headers: { 'api-key': apiKey, 'merchant-id': merchantId },
    payload: createBody(),
  })
  expect(created.statusCode).toBe(201)
  return created.json<{ paymentId: string }>().paymentId
}

describe('the Payments page’s live stream', () => {
  it('announces each payment made and each status change the user may see, and no other partner’s', async () => {
    const owner = await dashboardMember(ctx, clock, account, 'viewer')
    const stream = await follow(owner.cookie)
    expect((await stream.next()).event).toBe('ready')
    const stranger = await createAccount(ctx.tdb.db, { sandbox: true })
    await pay(stranger.merchantId, stranger.apiKey)
    const ours = await pay(account.merchantId)
    expect(await stream.next()).toEqual({ event: 'payment', data: { paymentId: ours } })
    await ctx.app.inject({
      method: 'POST',
      url: `/v1/sandbox/payments/${ours}/simulate`,
      headers: account.headers,
      payload: { outcome: 'succeeded' },
    })
    // The simulated payment passes through processing on its way to succeeded: one event for each change.
    expect(await stream.next()).toEqual({ event: 'payment', data: { paymentId: ours } })
    stream.close()
  })

  it('tells a user limited to one merchant of that merchant’s payments only', async () => {
    const kiosk = await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'Kiosk',
      email: 'k@shop.example',
      now: clock.now(),
    })
    const clerk = await dashboardMember(ctx, clock, account, 'viewer', kiosk.id)
    const stream = await follow(clerk.cookie)
    expect((await stream.next()).event).toBe('ready')
    await pay(account.merchantId)
    const theirs = await pay(kiosk.id)
    expect(await stream.next()).toEqual({ event: 'payment', data: { paymentId: theirs } })
    stream.close()
  })

  it('refuses anyone not signed in, in the spec’s error shape, with no stream', async () => {
    const response = await fetch(`${base}/dashboard/api/payments/live`)
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ code: 'not_signed_in', message: expect.any(String) })
  })
})
