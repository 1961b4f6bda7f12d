import { CreatePaymentRequest } from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expirySweeper } from '../src/payments/expiry-sweeper.ts'
import { paymentService } from '../src/payments/service.ts'
import { paymentStore } from '../src/payments/store.ts'
import { createAccount, createBody, openTestDatabase, testApp, testClock, type Account, type TestDatabase, silentLog } from './fixtures.ts'

describe('concurrent requests on PostgreSQL', () => {
  let tdb: TestDatabase
  let app: FastifyInstance
  let baseUrl: string
  let account: Account

  beforeAll(async () => {
    tdb = await openTestDatabase()
    app = await testApp(tdb.db, { config: { sandbox: true } })
    baseUrl = await app.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await app.close()
    await tdb.close()
  })
  beforeEach(async () => {
    await tdb.reset()
    account = await createAccount(tdb.db, { sandbox: true })
  })

  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { ...account.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })

  it('turns 64 identical concurrent creates into exactly one payment', async () => {
    const body = createBody()
    const responses = await Promise.all(Array.from({ length: 64 }, () => post('/v1/merchant/payment', body)))
    const statuses = responses.map((response) => response.status)
    const ids = new Set(await Promise.all(responses.map(async (response) => ((await response.json()) as { paymentId: string }).paymentId)))
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.filter((status) => status === 200)).toHaveLength(63)
    expect(ids.size).toBe(1)
    const rows = await tdb.db.query('SELECT id FROM payments WHERE reference_id = $1', [body.referenceId])
    expect(rows).toHaveLength(1)
  })

  it('lets exactly one of 64 concurrent simulations succeed a payment', async () => {
    const created = (await (await post('/v1/merchant/payment', createBody())).json()) as { paymentId: string }
    const responses = await Promise.all(
      Array.from({ length: 64 }, () => post(`/v1/sandbox/payments/${created.paymentId}/simulate`, { outcome: 'succeeded' })),
    )
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(63)
    const steps = await paymentStore(tdb.db).transitions(created.paymentId)
    expect(steps.map((step) => step.to_status)).toEqual(['pending', 'processing', 'succeeded'])
  })

  it('lets each payment either confirm or expire, never both, when the two race at the deadline', async () => {
    const store = paymentStore(tdb.db)
    const createdAt = new Date('2026-11-21T12:00:00.000Z')
    const creator = paymentService({
      db: tdb.db,
      clock: testClock(createdAt),
      policy: { paymentTtlSeconds: 60, allowLoopbackRedirects: false },
    })
    const payments = await Promise.all(
      Array.from({ length: 40 }, () =>
        creator.create({ partnerId: account.partnerId, merchantId: account.merchantId, request: CreatePaymentRequest.parse(createBody()) }),
      ),
    )
    const deadline = createdAt.getTime() + 60_000
    // The buyer's confirmation is stamped a millisecond before the deadline; the sweeper runs at it.
    const confirmer = paymentService({
      db: tdb.db,
      clock: testClock(new Date(deadline - 1)),
      policy: { paymentTtlSeconds: 60, allowLoopbackRedirects: false },
    })
    const sweeper = expirySweeper({ store, clock: testClock(new Date(deadline)), intervalMs: 1_000, log: silentLog })
    await Promise.all([
      ...payments.map(({ payment }) => confirmer.transition({ payment, to: 'processing', reason: 'race' }).catch(() => undefined)),
      sweeper.sweep(),
      sweeper.sweep(),
    ])
    for (const { payment } of payments) {
      const steps = (await store.transitions(payment.id)).map((step) => step.to_status)
      expect(steps.length).toBe(2)
      expect(['processing', 'expired']).toContain(steps[1])
      expect((await store.findById(payment.id))?.status).toBe(steps[1])
    }
  })
})
