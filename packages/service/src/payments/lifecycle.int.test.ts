import { CreatePaymentRequest, type MerchantPaymentStatus } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, createBody, testClock, type Account, silentLog, useTestDatabase } from '../../test/fixtures.ts'
import { ApiError } from '../errors.ts'
import { paymentStore } from './store.ts'
import { expirySweeper } from './expiry-sweeper.ts'
import { paymentService } from './service.ts'
import { statusCache } from './status-cache.ts'

let account: Account
const clock = testClock()
const TTL = 900

const ctx = useTestDatabase()
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db)
})

const store = () => paymentStore(ctx.tdb.db)
const policy = { paymentTtlSeconds: TTL, allowLoopbackRedirects: false }
const service = () => paymentService({ db: ctx.tdb.db, clock, policy })
/** A service whose status cache records every change it is told of. */
function listening() {
  const heard: string[] = []
  return { payments: paymentService({ db: ctx.tdb.db, clock, policy, cache: statusCache({ onChange: (id) => heard.push(id) }) }), heard }
}
const create = (body: Record<string, unknown> = {}) =>
  service().create({ partnerId: account.partnerId, merchantId: account.merchantId, request: CreatePaymentRequest.parse(createBody(body)) })
const move = async (id: string, to: MerchantPaymentStatus) => {
  const payment = await store().findById(id)
  if (!payment) throw new Error('no payment')
  return service().transition({ payment, to, reason: 'test' })
}
const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise
  } catch (error) {
    if (error instanceof ApiError) return error.code
    throw error
  }
  return 'no error'
}

describe('the transition rule', () => {
  it('walks pending → processing → succeeded and records every step', async () => {
    const { payment } = await create()
    await move(payment.id, 'processing')
    expect((await move(payment.id, 'succeeded')).status).toBe('succeeded')
    const steps = (await store().transitions(payment.id)).map((t) => `${t.from_status ?? '∅'}→${t.to_status}`)
    expect(steps).toEqual(['∅→pending', 'pending→processing', 'processing→succeeded'])
  })

  it.each([[['processing', 'failed']], [['failed']], [['expired']]] as MerchantPaymentStatus[][][])(
    'allows %j from pending',
    async (path) => {
      const { payment } = await create()
      for (const to of path) await move(payment.id, to)
      expect((await store().findById(payment.id))?.status).toBe(path.at(-1))
    },
  )

  it.each([
    ['pending', 'succeeded'],
    ['processing', 'expired'],
    ['processing', 'pending'],
    ['succeeded', 'failed'],
    ['failed', 'processing'],
    ['expired', 'processing'],
    ['succeeded', 'succeeded'],
  ] as [MerchantPaymentStatus, MerchantPaymentStatus][])('refuses %s → %s', async (from, to) => {
    const { payment } = await create()
    const walk: Record<MerchantPaymentStatus, MerchantPaymentStatus[]> = {
      pending: [],
      processing: ['processing'],
      succeeded: ['processing', 'succeeded'],
      failed: ['failed'],
      expired: ['expired'],
      cancelled: ['cancelled'],
    }
    for (const step of walk[from]) await move(payment.id, step)
    expect(await codeOf(move(payment.id, to))).toBe('invalid_transition')
    expect((await store().findById(payment.id))?.status).toBe(from)
  })

  it('is enforced by the database itself, whatever SQL runs', async () => {
    const { payment } = await create()
    await move(payment.id, 'failed')
    await expect(ctx.tdb.db.query(`UPDATE payments SET status = 'succeeded' WHERE id = $1`, [payment.id])).rejects.toThrow(
      /illegal payment transition failed -> succeeded/,
    )
  })
})

describe('expiry', () => {
  it('expires an unread payment at its deadline, by the sweeper', async () => {
    const { payment } = await create()
    const sweeper = expirySweeper({ store: store(), clock, intervalMs: 1_000, log: silentLog })
    clock.advance(TTL * 1000 - 1)
    expect(await sweeper.sweep()).toBe(0)
    clock.advance(1)
    expect(await sweeper.sweep()).toBe(1)
    const stored = await store().findById(payment.id)
    expect(stored?.status).toBe('expired')
    // It expired as of its deadline, not as of whenever the sweep happened to run.
    const last = (await store().transitions(payment.id)).at(-1)
    expect(last).toMatchObject({ from_status: 'pending', to_status: 'expired', reason: 'deadline' })
    expect(last?.at.getTime()).toBe(payment.expiresAt.getTime())
  })

  it('expires a due payment when it is read, before any sweep', async () => {
    const { payment } = await create()
    clock.advance(TTL * 1000)
    const read = await service().readForMerchant(payment.id, account.merchantId, account.partnerId)
    expect(read?.status).toBe('expired')
  })

  it('lets the expiry win over a confirmation that arrives at or after the deadline', async () => {
    const { payment } = await create()
    clock.advance(TTL * 1000)
    expect(await codeOf(move(payment.id, 'processing'))).toBe('invalid_transition')
    expect((await store().findById(payment.id))?.status).toBe('expired')
  })

  it('does not expire a payment whose transaction is already processing', async () => {
    const { payment } = await create()
    await move(payment.id, 'processing')
    clock.advance(TTL * 1000 * 2)
    expect(await expirySweeper({ store: store(), clock, intervalMs: 1_000, log: silentLog }).sweep()).toBe(0)
    expect((await move(payment.id, 'succeeded')).status).toBe('succeeded')
  })
})

describe('reaching the deadline on demand (sandbox)', () => {
  it('ends a pending payment as its deadline would: expired as of the new deadline, by the deadline rule', async () => {
    const { payment } = await create()
    clock.advance(60_000)
    const reached = await service().reachDeadline(payment)
    expect(reached).toMatchObject({ status: 'expired', expiresAt: clock.now() })
    const last = (await store().transitions(payment.id)).at(-1)
    expect(last).toMatchObject({ from_status: 'pending', to_status: 'expired', reason: 'deadline' })
    expect(last?.at.getTime()).toBe(clock.now().getTime())
    expect(await codeOf(move(payment.id, 'processing'))).toBe('invalid_transition')
  })

  it('tells the status cache, so waiting pages hear of it', async () => {
    const { payment } = await create()
    const { payments, heard } = listening()
    await payments.reachDeadline(payment)
    expect(heard).toContain(payment.id)
    expect((await payments.statusForCheckout(payment.id))?.status).toBe('expired')
  })

  it.each(['processing', 'failed'] as const)('refuses a %s payment, which has no deadline left to reach', async (status) => {
    const { payment } = await create()
    await move(payment.id, status)
    expect(await codeOf(service().reachDeadline(payment))).toBe('invalid_transition')
    expect((await store().findById(payment.id))?.expiresAt).toEqual(payment.expiresAt)
  })
})

describe('several steps as one (atomically)', () => {
  it('commits every step, and tells the cache only after the commit', async () => {
    const { payment } = await create()
    const { payments, heard } = listening()
    await payments.atomically(async ({ transition }) => {
      const processing = await transition({ payment, to: 'processing', reason: 'test' })
      await transition({ payment: processing, to: 'succeeded', reason: 'test' })
      expect(heard).toEqual([])
    })
    expect(heard).toEqual([payment.id, payment.id])
    expect((await store().transitions(payment.id)).map((t) => t.to_status)).toEqual(['pending', 'processing', 'succeeded'])
  })

  it('keeps none of them when a later statement fails, and tells nobody', async () => {
    const { payment } = await create()
    const { payments, heard } = listening()
    const failed = payments.atomically(async ({ transition, tx }) => {
      await transition({ payment, to: 'processing', reason: 'test' })
      await tx.query('SELECT no_such_column FROM payments')
    })
    await expect(failed).rejects.toThrow(/no_such_column/)
    expect(heard).toEqual([])
    expect((await store().findById(payment.id))?.status).toBe('pending')
    expect((await store().transitions(payment.id)).map((t) => t.to_status)).toEqual(['pending'])
  })
})

describe('referenceId', () => {
  it('returns the same open payment to a retried create', async () => {
    const body = createBody()
    const first = await create(body)
    const again = await create(body)
    expect(first.replayed).toBe(false)
    expect(again).toMatchObject({ replayed: true, payment: { id: first.payment.id } })
  })

  it('returns the same payment while it is processing', async () => {
    const body = createBody()
    const first = await create(body)
    await move(first.payment.id, 'processing')
    expect((await create(body)).payment).toMatchObject({ id: first.payment.id, status: 'processing' })
  })

  it('refuses a different amount for an open referenceId', async () => {
    const body = createBody()
    await create(body)
    expect(await codeOf(create({ ...body, amount: { unit: 'iso4217/EUR', value: '2000' } }))).toBe('reference_in_use')
    expect(await codeOf(create({ ...body, amount: { unit: 'iso4217/USD', value: '1999' } }))).toBe('reference_in_use')
  })

  it('refuses a referenceId whose payment succeeded: no double charge', async () => {
    const body = createBody()
    const { payment } = await create(body)
    await move(payment.id, 'processing')
    await move(payment.id, 'succeeded')
    expect(await codeOf(create(body))).toBe('reference_already_paid')
  })

  it.each(['failed', 'expired'] as const)('allows a new payment after the last one %s', async (end) => {
    const body = createBody()
    const { payment } = await create(body)
    await move(payment.id, end)
    const next = await create(body)
    expect(next.replayed).toBe(false)
    expect(next.payment.id).not.toBe(payment.id)
  })

  it('creates a new payment when the open one has passed its deadline unswept', async () => {
    const body = createBody()
    const { payment } = await create(body)
    clock.advance(TTL * 1000)
    const next = await create(body)
    expect(next.payment.id).not.toBe(payment.id)
    expect((await store().findById(payment.id))?.status).toBe('expired')
  })

  it('keeps referenceIds of different merchants apart', async () => {
    const body = createBody()
    await create(body)
    const other = await createAccount(ctx.tdb.db)
    const theirs = await service().create({
      partnerId: other.partnerId,
      merchantId: other.merchantId,
      request: CreatePaymentRequest.parse(body),
    })
    expect(theirs.replayed).toBe(false)
  })
})
