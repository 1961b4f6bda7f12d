import { CreatePaymentRequest, type SandboxWalletId } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { createAccount, createBody, silentLog, testClock, type Account, useTestDatabase } from '../../test/fixtures.ts'
import type { Database, Queryable, Row, SqlValue } from '../db/port.ts'
import { type PaymentService, paymentService } from '../payments/service.ts'
import { statusCache } from '../payments/status-cache.ts'
import { paymentStore } from '../payments/store.ts'
import { SANDBOX_OPTIONS } from './chain-data.ts'
import { deliverConfirmation, sandboxConfirmations, sandboxConfirmer } from './confirmations.ts'
import { simulateOutcome } from './simulate.ts'
import { payWithTestWallet } from './test-wallets.ts'

let account: Account
const clock = testClock()
const SLOW_MS = 8_000
const option = SANDBOX_OPTIONS[0]!
const buyer = `${option.network.caip2}:0x52908400098527886e0f7030069857d2e4169ee7`

const ctx = useTestDatabase()
beforeEach(async () => {
  clock.set(new Date('2026-11-21T12:00:00.000Z'))
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

/**
 * The database, except that the statements `fails` picks throw, as if the process died right there: what
 * was written before them in the same transaction must not survive.
 */
function failing(db: Database, fails: (sql: string, params: readonly SqlValue[]) => boolean): Database {
  const guard = (on: Queryable): Queryable => ({
    query: <T extends Row = Row>(sql: string, params: readonly SqlValue[] = []) =>
      fails(sql, params) ? Promise.reject(new Error('injected failure')) : on.query<T>(sql, params),
    exec: (sql) => on.exec(sql),
  })
  return {
    ...guard(db),
    transaction: (work) => db.transaction((tx) => work(guard(tx))),
    subscribe: (channel, handlers) => db.subscribe(channel, handlers),
    close: () => db.close(),
  }
}

function services(db: Database = ctx.tdb.db) {
  const heard: string[] = []
  const payments = paymentService({
    db,
    clock,
    policy: { paymentTtlSeconds: 900, allowLoopbackRedirects: true },
    cache: statusCache({ onChange: (id) => heard.push(id) }),
  })
  return { payments, heard }
}

async function created() {
  const { payment } = await services().payments.create({
    partnerId: account.partnerId,
    merchantId: account.merchantId,
    request: CreatePaymentRequest.parse(createBody()),
  })
  return payment
}

const pay =
  (payments: ReturnType<typeof services>['payments'], walletId: SandboxWalletId, slowConfirmMs: number | 'held' = SLOW_MS) =>
  async (payment: Awaited<ReturnType<typeof created>>) =>
    payWithTestWallet({ payments, clock, slowConfirmMs }, { payment, walletId, option, account: buyer })

const statusOf = async (id: string) => (await paymentStore(ctx.tdb.db).findById(id))?.status
const stepsOf = async (id: string) => (await paymentStore(ctx.tdb.db).transitions(id)).map((t) => t.to_status)

/** The poller that delivers due confirmations, on the test's clock. */
const confirmerOf = (payments: PaymentService) =>
  sandboxConfirmer({ confirmations: sandboxConfirmations(ctx.tdb.db), payments, clock, intervalMs: 250, log: silentLog })

describe('the slow test wallet', () => {
  it('confirms when its time comes, by the poller, and not before', async () => {
    const { payments } = services()
    const payment = await created()
    expect((await pay(payments, 'sandbox_slow')(payment)).status).toBe('processing')
    const confirmer = confirmerOf(payments)
    clock.advance(SLOW_MS - 1)
    expect(await confirmer.deliverDue()).toBe(0)
    expect(await statusOf(payment.id)).toBe('processing')
    clock.advance(1)
    expect(await confirmer.deliverDue()).toBe(1)
    expect(await statusOf(payment.id)).toBe('succeeded')
    expect(await confirmer.deliverDue()).toBe(0)
  })

  it('held, never confirms by itself, however long it waits', async () => {
    const { payments } = services()
    const payment = await created()
    await pay(payments, 'sandbox_slow', 'held')(payment)
    const confirmer = confirmerOf(payments)
    clock.advance(365 * 24 * 3600 * 1000)
    expect(await confirmer.deliverDue()).toBe(0)
    expect(await statusOf(payment.id)).toBe('processing')
  })

  it.each([SLOW_MS, 'held'] as const)('with %s: confirms at once when released, exactly once', async (slowConfirmMs) => {
    const { payments, heard } = services()
    const payment = await created()
    await pay(payments, 'sandbox_slow', slowConfirmMs)(payment)
    const confirmed = await deliverConfirmation({ payments, clock }, payment.id)
    expect(confirmed).toMatchObject({ id: payment.id, status: 'succeeded', paid: { settlement: { settled: true } } })
    expect(heard.at(-1)).toBe(payment.id)
    expect(await deliverConfirmation({ payments, clock }, payment.id)).toBeUndefined()
    const confirmer = confirmerOf(payments)
    clock.advance(SLOW_MS)
    expect(await confirmer.deliverDue()).toBe(0)
    expect(await stepsOf(payment.id)).toEqual(['pending', 'processing', 'succeeded'])
  })

  it('drops a promised confirmation whose payment has moved on', async () => {
    const { payments } = services()
    const payment = await created()
    const processing = await pay(payments, 'sandbox_slow', 'held')(payment)
    await payments.transition({ payment: processing, to: 'failed', reason: 'test' })
    expect(await deliverConfirmation({ payments, clock }, payment.id)).toBeUndefined()
    expect(await statusOf(payment.id)).toBe('failed')
    expect(await sandboxConfirmations(ctx.tdb.db).take(payment.id)).toBe(false)
  })

  it.each(['sandbox_pays', 'sandbox_never'] as const)('has nothing to release for %s', async (walletId) => {
    const { payments } = services()
    const payment = await created()
    await pay(payments, walletId, 'held')(payment)
    expect(await deliverConfirmation({ payments, clock }, payment.id)).toBeUndefined()
  })
})

describe('a crash half way through a move', () => {
  it('of the slow wallet (processing, then its confirmation row) leaves the payment pending', async () => {
    const payment = await created()
    const { payments, heard } = services(failing(ctx.tdb.db, (sql) => sql.includes('INSERT INTO sandbox_confirmations')))
    await expect(pay(payments, 'sandbox_slow')(payment)).rejects.toThrow('injected failure')
    expect(await statusOf(payment.id)).toBe('pending')
    expect(await stepsOf(payment.id)).toEqual(['pending'])
    expect(heard).toEqual([])
    // Nothing half done stands in the way: the buyer can pay again, and this time it holds.
    await pay(services().payments, 'sandbox_slow')(payment)
    expect(await statusOf(payment.id)).toBe('processing')
  })

  const failsSucceeding = (sql: string, params: readonly SqlValue[]) => sql.includes('UPDATE payments') && params[1] === 'succeeded'

  it('of the paying wallet (processing, then succeeded) leaves the payment pending', async () => {
    const payment = await created()
    const { payments, heard } = services(failing(ctx.tdb.db, failsSucceeding))
    await expect(pay(payments, 'sandbox_pays')(payment)).rejects.toThrow('injected failure')
    expect(await statusOf(payment.id)).toBe('pending')
    expect(heard).toEqual([])
  })

  it('of simulate from pending to succeeded leaves the payment pending', async () => {
    const payment = await created()
    const { payments, heard } = services(failing(ctx.tdb.db, failsSucceeding))
    await expect(simulateOutcome({ payments, clock }, payment, 'succeeded')).rejects.toThrow('injected failure')
    expect(await statusOf(payment.id)).toBe('pending')
    expect(await stepsOf(payment.id)).toEqual(['pending'])
    expect(heard).toEqual([])
  })

  it('of a confirmation (its row taken, then succeeded) leaves it to be delivered again', async () => {
    const payment = await created()
    await pay(services().payments, 'sandbox_slow', 'held')(payment)
    const { payments } = services(failing(ctx.tdb.db, failsSucceeding))
    await expect(deliverConfirmation({ payments, clock }, payment.id)).rejects.toThrow('injected failure')
    expect(await statusOf(payment.id)).toBe('processing')
    expect(await deliverConfirmation({ payments: services().payments, clock }, payment.id)).toMatchObject({ status: 'succeeded' })
  })
})
