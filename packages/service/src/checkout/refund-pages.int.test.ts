// The refund pages (issue 24): the buyer's claim link is single-use and expires after 30 days; a typed address
// must carry its checksum, the connected wallet's need not; the merchant's pay page pays with the sandbox's
// test wallets. The refund's webhook events go out with each step.
import { Refund } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, createBody, testClock, type Account, useTestApp } from '../../test/fixtures.ts'

const clock = testClock()
const ctx = useTestApp({
  clock,
  config: { sandbox: true },
  outbound: { lookup: async () => [{ address: '93.184.216.34', family: 4 }] },
})
let account: Account
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

const PAID_FROM = 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7'
let keys = 0

async function refundOfPaidPayment(): Promise<Refund> {
  const created = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody() })
  const { paymentId } = created.json<{ paymentId: string }>()
  await ctx.app.inject({
    method: 'POST',
    url: `/v1/sandbox/payments/${paymentId}/simulate`,
    headers: account.headers,
    payload: { outcome: 'succeeded' },
  })
  const refund = await ctx.app.inject({
    method: 'POST',
    url: '/v1/refunds',
    headers: { ...account.headers, 'idempotency-key': `k${++keys}` },
    payload: { paymentId, reason: 'Wrong size' },
  })
  return Refund.parse(refund.json())
}

/** A page's path under the service, and its link's token. */
const linkOf = (url: string | null) => {
  const link = new URL(url ?? '')
  return { path: link.pathname.replace(/^\/pay/, '/checkout'), token: link.searchParams.get('token') ?? '' }
}
const open = (url: string | null) => {
  const { path, token } = linkOf(url)
  return ctx.app.inject({ url: `${path}?token=${token}` })
}
const submitClaim = (refund: Refund, fields: Record<string, string>, token = linkOf(refund.claimUrl).token) =>
  ctx.app.inject({
    method: 'POST',
    url: linkOf(refund.claimUrl).path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token, confirm: '1', ...fields }).toString(),
  })
const status = async (id: string) =>
  Refund.parse((await ctx.app.inject({ url: `/v1/refunds/${id}`, headers: account.headers })).json()).status

describe('the claim page', () => {
  it('asks where the refund goes, suggests the account that paid, and warns of exchange deposit addresses', async () => {
    const refund = await refundOfPaidPayment()
    const page = await open(refund.claimUrl)
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-security-policy']).toContain("form-action 'self'")
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect(page.body).toContain('Where should your refund go?')
    expect(page.body).toContain('Send it back to the account that paid')
    expect(page.body).toContain('exchange')
    expect(page.body).toContain('Wrong size')
  })

  it('refuses a typed address without its checksum, and takes the connected wallet’s as the wallet gave it', async () => {
    const refund = await refundOfPaidPayment()
    const typed = await submitClaim(refund, { destination: PAID_FROM.toLowerCase() })
    expect(typed.statusCode).toBe(400)
    expect(typed.body).toContain('is not EIP-55 checksummed')
    expect(await status(refund.id)).toBe('awaiting_destination')
    const unconfirmed = await submitClaim(refund, { destination: PAID_FROM, confirm: '' })
    expect(unconfirmed.statusCode).toBe(400)

    const connected = await submitClaim(refund, { destination: PAID_FROM.toLowerCase(), connected: '1' })
    expect(connected.statusCode).toBe(200)
    expect(connected.body).toContain('Thank you')
    const claimed = Refund.parse((await ctx.app.inject({ url: `/v1/refunds/${refund.id}`, headers: account.headers })).json())
    expect(claimed).toMatchObject({ status: 'ready', destination: PAID_FROM, claimUrl: null })
  })

  it('is single-use: once claimed, the link answers 410 and changes nothing', async () => {
    const refund = await refundOfPaidPayment()
    expect((await submitClaim(refund, { destination: PAID_FROM })).statusCode).toBe(200)
    const again = await open(refund.claimUrl)
    expect(again.statusCode).toBe(410)
    expect(again.body).toContain('already used')
    const other = 'eip155:8453:0x8ba1f109551bD432803012645Ac136ddd64DBA72'
    expect((await submitClaim(refund, { destination: other })).statusCode).toBe(410)
    expect(Refund.parse((await ctx.app.inject({ url: `/v1/refunds/${refund.id}`, headers: account.headers })).json()).destination).toBe(
      PAID_FROM,
    )
  })

  it('expires after 30 days', async () => {
    const refund = await refundOfPaidPayment()
    clock.advance(30 * 24 * 3600 * 1000 - 1)
    expect((await open(refund.claimUrl)).statusCode).toBe(200)
    clock.advance(1)
    const expired = await open(refund.claimUrl)
    expect(expired.statusCode).toBe(410)
    expect(expired.body).toContain('expired')
    expect((await submitClaim(refund, { destination: PAID_FROM })).statusCode).toBe(410)
  })

  it('refuses a link whose token is not this refund’s claim token, or is its pay token', async () => {
    const refund = await refundOfPaidPayment()
    for (const token of ['', 'forged', linkOf(refund.payUrl).token]) {
      const { path } = linkOf(refund.claimUrl)
      const response = await ctx.app.inject({ url: `${path}?token=${token}` })
      expect(response.statusCode).toBe(403)
      expect((await submitClaim(refund, { destination: PAID_FROM }, token)).statusCode).toBe(403)
    }
    expect(await status(refund.id)).toBe('awaiting_destination')
  })
})

describe('the pay page', () => {
  it('works for 30 days from when the refund got its destination, then answers 410', async () => {
    const refund = await refundOfPaidPayment()
    clock.advance(20 * 24 * 3600 * 1000)
    expect((await submitClaim(refund, { destination: PAID_FROM })).statusCode).toBe(200)
    clock.advance(30 * 24 * 3600 * 1000 - 1)
    expect((await open(refund.payUrl)).statusCode).toBe(200)
    clock.advance(1)
    const expired = await open(refund.payUrl)
    expect(expired.statusCode).toBe(410)
    const { path, token } = linkOf(refund.payUrl)
    const posted = await ctx.app.inject({
      method: 'POST',
      url: `${path.replace(/\/pay$/, '/transaction')}?token=${token}`,
      payload: { transactionHash: `0x${'12'.repeat(32)}` },
    })
    expect(posted.statusCode).toBe(410)
    expect(posted.json()).toMatchObject({ code: 'refund_link_expired' })
    const now = Refund.parse((await ctx.app.inject({ url: `/v1/refunds/${refund.id}`, headers: account.headers })).json())
    expect(now).toMatchObject({ status: 'ready', payUrl: null })
  })

  it('pays with a sandbox test wallet, sending webhook events for each step', async () => {
    const endpoint = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook-endpoints',
      headers: account.headers,
      payload: { url: 'https://hooks.corner-shop.com/webhooks' },
    })
    expect(endpoint.statusCode).toBe(201)
    const refund = await refundOfPaidPayment()
    expect((await submitClaim(refund, { destination: PAID_FROM })).statusCode).toBe(200)
    const page = await open(refund.payUrl)
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('Test Wallet: Pays')
    const { path, token } = linkOf(refund.payUrl)
    const paid = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token, walletId: 'sandbox_pays' }).toString(),
    })
    expect(paid.statusCode).toBe(303)
    expect(await status(refund.id)).toBe('succeeded')
    expect((await open(refund.payUrl)).body).toContain('Refund confirmed on the network.')
    const events = await ctx.tdb.db.query<{ type: string }>(
      "SELECT e.type FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id WHERE e.type LIKE 'refund.%' ORDER BY e.created_at, e.type",
    )
    expect(events.map((event) => event.type).sort()).toEqual(['refund.created', 'refund.succeeded'])
    // Rendered as sent: the refund as the API shows it, at each change.
    const endpointId = endpoint.json<{ endpoint: { id: string } }>().endpoint.id
    const deliveries = await ctx.app.inject({ url: `/v1/webhook-endpoints/${endpointId}/deliveries`, headers: account.headers })
    const sent = deliveries.json<{ data: { event: { type: string; data: { id?: string; status?: string } } }[] }>().data
    expect(sent.filter((delivery) => delivery.event.type.startsWith('refund.')).map((delivery) => delivery.event)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'refund.created',
          data: expect.objectContaining({ id: refund.id, status: 'awaiting_destination' }),
        }),
        expect.objectContaining({ type: 'refund.succeeded', data: expect.objectContaining({ id: refund.id, status: 'succeeded' }) }),
      ]),
    )
  })
})
