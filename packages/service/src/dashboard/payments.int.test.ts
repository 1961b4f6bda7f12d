// The dashboard's payments (issue 25, points 5 and 6, server side): the listing scoped by who signed in, a
// payment's page with its timeline, and cancel and refund for admins and owners only, each in the audit log.
import type { LightMyRequestResponse } from 'fastify'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, createBody, testClock, type Account, useTestApp } from '../../test/fixtures.ts'
import { accountStore } from '../accounts/store.ts'
import type { DashboardRole } from './people.ts'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'

const clock = testClock()
const ctx = useTestApp({ clock, config: { sandbox: true } })
let account: Account
let otherMerchant: string
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db, { sandbox: true })
  otherMerchant = (
    await accountStore(ctx.tdb.db).createMerchant({
      partnerId: account.partnerId,
      name: 'Kiosk',
      email: 'k@shop.example',
      now: clock.now(),
    })
  ).id
})

const member = (role: DashboardRole, merchantId: string | null = null) => dashboardMember(ctx, clock, account, role, merchantId)

async function payment(merchantId = account.merchantId, outcome?: 'succeeded'): Promise<string> {
  const headers = { ...account.headers, 'merchant-id': merchantId }
  const created = await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers, payload: createBody() })
  const { paymentId } = created.json<{ paymentId: string }>()
  if (outcome) await ctx.app.inject({ method: 'POST', url: `/v1/sandbox/payments/${paymentId}/simulate`, headers, payload: { outcome } })
  return paymentId
}

const codeOf = (response: LightMyRequestResponse) => response.json<{ code: string }>().code
const ids = (response: LightMyRequestResponse) => response.json<{ data: { paymentId: string }[] }>().data.map((p) => p.paymentId)

describe('the Payments page’s data', () => {
  it('lists the partner’s payments with their stats, and only its merchant’s for a user limited to one', async () => {
    const ours = await payment()
    const theirs = await payment(otherMerchant)
    const owner = await member('owner')
    const listed = await owner.get('/dashboard/api/payments?limit=10')
    expect(listed.statusCode).toBe(200)
    expect(ids(listed).sort()).toEqual([ours, theirs].sort())
    expect(listed.json()).toMatchObject({ stats: { totalTransactions: 2 } })
    const clerk = await member('admin', otherMerchant)
    expect(ids(await clerk.get('/dashboard/api/payments'))).toEqual([theirs])
    expect((await clerk.get(`/dashboard/api/payments/${ours}`)).statusCode).toBe(404)
    expect((await ctx.app.inject({ url: '/dashboard/api/payments' })).statusCode).toBe(401)
  })

  it('filters by merchant, offering the merchants the user may see', async () => {
    await payment()
    const theirs = await payment(otherMerchant)
    const owner = await member('owner')
    const names = (await owner.get('/dashboard/api/merchants')).json<{ data: { id: string; name: string }[] }>().data
    expect(names.map((m) => m.id).sort()).toEqual([account.merchantId, otherMerchant].sort())
    expect(ids(await owner.get(`/dashboard/api/payments?merchantId=${otherMerchant}`))).toEqual([theirs])
    const clerk = await member('viewer', otherMerchant)
    expect((await clerk.get('/dashboard/api/merchants')).json()).toEqual({
      data: [expect.objectContaining({ id: otherMerchant, name: 'Kiosk' })],
    })
  })

  it('finds a payment by its id, its transaction’s hash or its buyer’s address, as by a piece of its reference', async () => {
    const paid = await payment(account.merchantId, 'succeeded')
    await payment(account.merchantId, 'succeeded')
    const owner = await member('owner')
    const listed = await ctx.app.inject({ url: `/v1/payments?limit=200`, headers: { 'api-key': account.apiKey } })
    const row = listed
      .json<{ data: { paymentId: string; referenceId: string; transaction: { hash: string }; buyer: { accountCaip10: string } }[] }>()
      .data.find((p) => p.paymentId === paid)
    if (!row) throw new Error('the payment is not listed')
    const address = row.buyer.accountCaip10.split(':')[2] ?? ''
    for (const q of [
      paid,
      row.transaction.hash.toUpperCase().replace('0X', '0x'),
      address.toUpperCase().replace('0X', '0x'),
      row.buyer.accountCaip10,
      row.referenceId.slice(2, 12),
    ]) {
      const found = await owner.get(`/dashboard/api/payments?q=${encodeURIComponent(q)}`)
      expect(ids(found), q).toEqual([paid])
      expect(found.json(), q).toMatchObject({ stats: { totalTransactions: 1, totalCustomers: 1 } })
    }
    const exported = await owner.get(`/dashboard/api/payments/export.csv?q=${paid}`)
    expect(exported.body.trim().split('\r\n')).toHaveLength(2)
  })

  it('pages with "Next" and "Previous" by keyset, each page the same both ways, with the same stats', async () => {
    const made: string[] = []
    for (let i = 0; i < 5; i++) {
      clock.set(new Date(Date.parse('2026-11-21T12:00:00.000Z') + i * 1000))
      made.push(await payment())
    }
    const newestFirst = made.reverse()
    const owner = await member('viewer')
    type Listed = { data: { paymentId: string }[]; nextCursor: string | null; previousCursor: string | null; stats: unknown }
    const read = async (cursor?: string) =>
      (await owner.get(`/dashboard/api/payments?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json<Listed>()
    const first = await read()
    expect([first.data.map((p) => p.paymentId), first.previousCursor]).toEqual([newestFirst.slice(0, 2), null])
    const second = await read(first.nextCursor ?? '')
    const third = await read(second.nextCursor ?? '')
    expect([third.data.map((p) => p.paymentId), third.nextCursor]).toEqual([newestFirst.slice(4), null])
    const backToSecond = await read(third.previousCursor ?? '')
    expect(backToSecond.data.map((p) => p.paymentId)).toEqual(newestFirst.slice(2, 4))
    const backToFirst = await read(backToSecond.previousCursor ?? '')
    expect([backToFirst.data.map((p) => p.paymentId), backToFirst.previousCursor]).toEqual([newestFirst.slice(0, 2), null])
    expect((await read(backToFirst.nextCursor ?? '')).data.map((p) => p.paymentId)).toEqual(newestFirst.slice(2, 4))
    expect(backToFirst.stats).toEqual(first.stats)
  })

  it('counts the filter’s payments per UTC day for the chart, every day of the range, scoped like the list', async () => {
    clock.set(new Date('2026-11-19T23:59:00.000Z'))
    await payment(account.merchantId, 'succeeded')
    clock.set(new Date('2026-11-21T00:01:00.000Z'))
    await payment(account.merchantId, 'succeeded')
    await payment()
    await payment(otherMerchant)
    const owner = await member('owner')
    const range = await owner.get('/dashboard/api/payments/daily?startTs=2026-11-19T00:00:00.000Z&endTs=2026-11-22T00:00:00.000Z')
    expect(range.statusCode).toBe(200)
    const days = range.json<{ data: { day: string; payments: number; amounts: { currency: string; minor: string }[] }[] }>().data
    expect(days.map((day) => [day.day, day.payments])).toEqual([
      ['2026-11-19', 1],
      ['2026-11-20', 0],
      ['2026-11-21', 3],
    ])
    // The bars add up to the tiles: the chart is read as the stats are.
    const listed = await owner.get('/dashboard/api/payments?startTs=2026-11-19T00:00:00.000Z&endTs=2026-11-22T00:00:00.000Z')
    expect(days.reduce((sum, day) => sum + day.payments, 0)).toBe(
      listed.json<{ stats: { totalTransactions: number } }>().stats.totalTransactions,
    )
    const euro = { currency: 'EUR', minor: '1999' }
    expect(days[0]?.amounts).toEqual([euro])
    const succeeded = await owner.get(
      '/dashboard/api/payments/daily?status=succeeded&startTs=2026-11-21T00:00:00.000Z&endTs=2026-11-22T00:00:00.000Z',
    )
    expect(succeeded.json()).toEqual({ data: [{ day: '2026-11-21', payments: 1, amounts: [euro] }] })
    const lastMonth = (await owner.get('/dashboard/api/payments/daily')).json<{ data: { day: string; payments: number }[] }>().data
    expect([lastMonth.length, lastMonth.at(-1)]).toEqual([30, { day: '2026-11-21', payments: 3, amounts: expect.any(Array) }])
    const clerk = await member('viewer', otherMerchant)
    const theirs = (await clerk.get('/dashboard/api/payments/daily')).json<{ data: { payments: number }[] }>().data
    expect(theirs.reduce((sum, day) => sum + day.payments, 0)).toBe(1)
    const bad = await owner.get('/dashboard/api/payments/daily?startTs=yesterday')
    expect([bad.statusCode, codeOf(bad)]).toEqual([400, 'invalid_params'])
  })

  it('filters as the listing does, cancelled included', async () => {
    const cancelled = await payment()
    await payment()
    const admin = await member('admin')
    expect((await admin.post(`/dashboard/api/payments/${cancelled}/cancel`)).statusCode).toBe(200)
    expect(ids(await admin.get('/dashboard/api/payments?status=cancelled'))).toEqual([cancelled])
  })
})

describe('a payment’s page', () => {
  it('shows its timeline: created, status changes and refunds, with the actions the role allows', async () => {
    const paid = await payment(account.merchantId, 'succeeded')
    const owner = await member('owner')
    const refund = await owner.post(
      `/dashboard/api/payments/${paid}/refunds`,
      { amount: '500', reason: 'Broken cup' },
      { 'idempotency-key': 'r1' },
    )
    expect(refund.statusCode).toBe(201)
    expect(refund.json()).toMatchObject({ paymentId: paid, status: 'awaiting_destination', claimUrl: expect.any(String) })
    const page = await owner.get(`/dashboard/api/payments/${paid}`)
    expect(page.json()).toMatchObject({ paymentId: paid, status: 'succeeded', actions: { cancel: false, refund: true, redeliver: true } })
    const timeline = page.json<{ timeline: { kind: string; to?: string; refundId?: string }[] }>().timeline
    expect(timeline.filter((entry) => entry.kind === 'status').map((entry) => entry.to)).toEqual(['pending', 'processing', 'succeeded'])
    expect(timeline.filter((entry) => entry.kind === 'refund').map((entry) => entry.refundId)).toEqual([refund.json<{ id: string }>().id])
    const viewer = await member('viewer')
    expect((await viewer.get(`/dashboard/api/payments/${paid}`)).json()).toMatchObject({
      actions: { cancel: false, refund: false, redeliver: false },
    })
  })
})

describe('cancel and refund from the dashboard', () => {
  it('refuse a viewer with 403 and a forged request with its cookie alone, and change nothing', async () => {
    const open = await payment()
    const viewer = await member('viewer')
    const refused = await viewer.post(`/dashboard/api/payments/${open}/cancel`)
    expect([refused.statusCode, codeOf(refused)]).toEqual([403, 'role_forbidden'])
    const admin = await member('admin')
    const forged = await admin.post(
      `/dashboard/api/payments/${open}/cancel`,
      {},
      { 'x-csrf-token': 'guessed', origin: 'https://evil.example' },
    )
    expect([forged.statusCode, codeOf(forged)]).toEqual([403, 'csrf_refused'])
    expect((await admin.get(`/dashboard/api/payments/${open}`)).json()).toMatchObject({ status: 'pending', actions: { cancel: true } })
  })

  it('every state-changing route refuses a role below its own with 403, and changes nothing', async () => {
    const open = await payment()
    const paid = await payment(account.merchantId, 'succeeded')
    const routes: [string, object, string][] = [
      [`/dashboard/api/payments/${open}/cancel`, {}, 'admin'],
      [`/dashboard/api/payments/${paid}/refunds`, { amount: '100' }, 'admin'],
      [`/dashboard/api/payments/${paid}/deliveries/1/redeliver`, {}, 'admin'],
      ['/dashboard/api/invitations', { email: 'new@shop.example', role: 'viewer' }, 'owner'],
    ]
    const below = { admin: ['viewer'], owner: ['viewer', 'admin'] } as const
    for (const [url, body, needs] of routes) {
      for (const role of below[needs as keyof typeof below]) {
        const refused = await (await member(role)).post(url, body, { 'idempotency-key': `k-${role}` })
        expect([refused.statusCode, codeOf(refused)], `${role} on ${url}`).toEqual([403, 'role_forbidden'])
      }
    }
    const owner = await member('owner')
    expect((await owner.get(`/dashboard/api/payments/${open}`)).json()).toMatchObject({ status: 'pending' })
    expect((await ctx.app.inject({ url: `/v1/refunds?paymentId=${paid}`, headers: account.headers })).json()).toMatchObject({ data: [] })
    const log = (await owner.get('/dashboard/api/audit-log')).json<{ data: { action: string; target: string | null }[] }>()
    const changes = ['payment_cancelled', 'refund_created', 'webhook_redelivered']
    expect(log.data.filter((entry) => changes.includes(entry.action) || entry.target === 'new@shop.example')).toEqual([])
  })

  it('are recorded in the audit log: who cancelled, who refunded, from where', async () => {
    const open = await payment()
    const paid = await payment(account.merchantId, 'succeeded')
    const owner = await member('owner')
    await owner.post(`/dashboard/api/payments/${open}/cancel`)
    const refund = await owner.post(`/dashboard/api/payments/${paid}/refunds`, {}, { 'idempotency-key': 'whole' })
    const again = await owner.post(`/dashboard/api/payments/${paid}/refunds`, {}, { 'idempotency-key': 'whole' })
    expect(again.json<{ id: string }>().id).toBe(refund.json<{ id: string }>().id)
    const log = (await owner.get('/dashboard/api/audit-log')).json<{ data: { action: string; target: string | null; address: string }[] }>()
    expect(log.data.filter((entry) => entry.action === 'payment_cancelled' || entry.action === 'refund_created')).toEqual([
      expect.objectContaining({ action: 'refund_created', target: refund.json<{ id: string }>().id, address: '127.0.0.1' }),
      expect.objectContaining({ action: 'payment_cancelled', target: open }),
    ])
  })
})
