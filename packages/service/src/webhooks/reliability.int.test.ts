// Webhook deliveries survive what goes wrong between a status change and the merchant's 2xx: an endpoint
// that is down, fails, or hangs for a while (a dispatcher run by hand on the test clock), and a `till serve`
// killed with SIGKILL while its deliveries are in flight (the real CLI on its default embedded engine).
// Two dispatching instances and bad signatures are covered in delivery.int.test.ts and packages/express.
import { join } from 'node:path'
import { type TillReadyLine, WebhookDeliveryList, WebhookEndpointWithSecret, WebhookEvent } from '@till/contract'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type Account, createAccount, createBody } from '../../test/fixtures.ts'
import { handDispatcher, registerEndpoint, sandboxPayment, useWebhookApp } from '../../test/webhook-fixtures.ts'
import { RECEIVER_HOST, startWebhookReceiver } from '../../test/webhook-receiver.ts'
import { useTillProcesses } from '../cli/till-process.test-helper.ts'
import { DISPATCH_IN_FLIGHT, DISPATCH_WORKERS } from './dispatcher.ts'
import { webhookSender } from './sender.ts'

// Told of each delivery as it arrives, before it is answered: where the crash test kills Till.
let onArrival: (() => void) | undefined
const receiver = await startWebhookReceiver({ onReceived: () => onArrival?.() })
afterAll(() => receiver.close())

beforeEach(() => {
  receiver.received.length = 0
  receiver.answer()
  receiver.dropAll(false)
  onArrival = undefined
})

const eventOf = (index: number) => WebhookEvent.parse(JSON.parse(receiver.received[index]?.body ?? 'null'))

describe('an endpoint that is down, fails and hangs before it answers', () => {
  const { clock, outbound, ctx } = useWebhookApp(receiver)
  let account: Account
  beforeEach(async () => {
    account = await createAccount(ctx.tdb.db, { sandbox: true })
  })

  it('retries through a refused connection, a 500 and a timeout, and is delivered once a 2xx comes', async () => {
    const { endpoint, secret } = await registerEndpoint(ctx.app, account, { url: receiver.url() })
    const paymentId = await sandboxPayment(ctx.app, account, ['failed'])

    // Each attempt gets a deadline of its own that the test can end, as 10 s of silence would.
    let deadline = new AbortController()
    const dispatcher = await handDispatcher(ctx.tdb.db, clock, {
      send: (url, headers, body) => {
        deadline = new AbortController()
        return webhookSender({ policy: { allowLoopback: true }, ...outbound, signal: deadline.signal })(url, headers, body)
      },
    })
    const delivery = async () => {
      const response = await ctx.app.inject({ url: `/v1/webhook-endpoints/${endpoint.id}/deliveries`, headers: account.headers })
      const [only, ...others] = WebhookDeliveryList.parse(response.json()).data
      expect(others).toEqual([])
      if (!only) throw new Error('no delivery')
      return only
    }

    // 1. Nothing listens: the connection is refused.
    await receiver.down()
    expect(await dispatcher.runOnce()).toBe(1)
    expect(await delivery()).toMatchObject({ status: 'pending', nextAttemptAt: new Date(clock.now().getTime() + 5_000).toISOString() })

    // 2. Up again, but failing.
    await receiver.up()
    receiver.answer(500, 'hang')
    clock.advance(5_000)
    expect(await dispatcher.runOnce()).toBe(1)
    expect((await delivery()).nextAttemptAt).toBe(new Date(clock.now().getTime() + 300_000).toISOString())

    // 3. Takes the request and never answers: the attempt ends at its deadline.
    clock.advance(300_000)
    const third = dispatcher.runOnce()
    await vi.waitFor(() => expect(receiver.received).toHaveLength(2))
    deadline.abort()
    expect(await third).toBe(1)
    expect((await delivery()).nextAttemptAt).toBe(new Date(clock.now().getTime() + 1_800_000).toISOString())

    // 4. Answers 200: delivered, and nothing is sent again.
    clock.advance(1_799_999)
    expect(await dispatcher.runOnce()).toBe(0)
    clock.advance(1)
    expect(await dispatcher.runOnce()).toBe(1)
    clock.advance(7_200_000)
    expect(await dispatcher.runOnce()).toBe(0)

    const done = await delivery()
    expect(done).toMatchObject({ status: 'delivered', nextAttemptAt: null })
    expect(done.attempts.map(({ statusCode, error }) => ({ statusCode, error }))).toEqual([
      { statusCode: null, error: expect.stringMatching(/^could not reach the endpoint: .*ECONNREFUSED/) },
      { statusCode: 500, error: 'HTTP 500' },
      { statusCode: null, error: 'no answer within 10 s' },
      { statusCode: 200, error: null },
    ])
    // The three that arrived are one event, signed afresh each time; the last verifies as a receiver would.
    expect(receiver.received).toHaveLength(3)
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([done.event.id]))
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date(done.attempts[3]?.attemptedAt ?? 0))
    try {
      const verified = WebhookEvent.parse(new Webhook(secret).verify(receiver.received[2]?.body ?? '', receiver.received[2]?.headers ?? {}))
      expect(verified).toMatchObject({ id: done.event.id, type: 'payment.failed', data: { paymentId } })
    } finally {
      vi.useRealTimers()
    }
  })
})

// Each `till serve` starts its own PostgreSQL server: seconds on a busy 2-core machine.
const PROCESS_TEST_TIMEOUT = 120_000

describe('till serve killed with SIGKILL while deliveries are in flight', () => {
  const tills = useTillProcesses({ prefix: 'till-webhooks-', ca: () => receiver.ca })
  const serve = (dataDir: string) => tills.serve(['--data-dir', dataDir])

  async function call(ready: TillReadyLine, path: string, payload?: unknown) {
    const response = await fetch(`${String(ready.baseUrl)}${path}`, {
      method: payload === undefined ? 'GET' : 'POST',
      headers: { 'api-key': String(ready.apiKey), 'merchant-id': String(ready.merchantId), 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    })
    const text = await response.text()
    expect(response.ok, `${path}: ${response.status} ${text}`).toBe(true)
    return JSON.parse(text) as unknown
  }

  it(
    'sends, after a restart, the event of a change committed before the kill and never attempted',
    async () => {
      const dataDir = join(tills.root(), 'data')
      const first = await serve(dataDir)
      // The child resolves names with the real DNS: the receiver is reached at its IP, which its certificate names.
      const url = receiver.url().replace(RECEIVER_HOST, '127.0.0.1')
      const { endpoint, secret } = WebhookEndpointWithSecret.parse(await call(first.ready, '/v1/webhook-endpoints', { url }))
      const payment = async () => ((await call(first.ready, '/v1/merchant/payment', createBody())) as { paymentId: string }).paymentId
      const held: string[] = []
      for (let index = 0; index < DISPATCH_WORKERS; index++) held.push(await payment())
      const b = await payment()
      const fail = (ready: TillReadyLine, paymentId: string) =>
        call(ready, `/v1/sandbox/payments/${paymentId}/simulate`, { outcome: 'failed' })

      // One change at a time, each taken by a worker of its own; the receiver holds every one unanswered, so
      // each worker is stuck (for the attempt's 10 s deadline) and none is left to take the last change's delivery.
      receiver.answer(...held.map(() => 'hang' as const))
      for (const [index, paymentId] of held.entries()) {
        await fail(first.ready, paymentId)
        await vi.waitFor(() => expect(receiver.received).toHaveLength(index + 1), { timeout: 10_000 })
      }
      await fail(first.ready, b)
      first.kill('SIGKILL')
      await first.exited()
      const beforeKill = receiver.received.map((_, index) => eventOf(index).data.paymentId)
      expect(beforeKill.sort()).toEqual([...held].sort())

      const second = await serve(dataDir)
      await vi.waitFor(() => expect(receiver.received).toHaveLength(held.length + 1), { timeout: 15_000, interval: 50 })
      // Signed with the endpoint's secret and timestamped now: a receiver with the reference library accepts it.
      const last = receiver.received[held.length]
      const event = WebhookEvent.parse(new Webhook(secret).verify(last?.body ?? '', last?.headers ?? {}))
      expect(event).toMatchObject({ type: 'payment.failed', data: { paymentId: b, status: 'failed' } })

      const { data } = WebhookDeliveryList.parse(await call(second.ready, `/v1/webhook-endpoints/${endpoint.id}/deliveries`))
      const byPayment = new Map(data.map((delivery) => [delivery.event.data.paymentId, delivery]))
      expect(byPayment.get(b)).toMatchObject({ status: 'delivered', attempts: [{ statusCode: 200, error: null }] })
      // Those cut off by the kill recorded no attempt: they stay pending, sent again once their lease ends.
      for (const cut of held) expect(byPayment.get(cut)).toMatchObject({ status: 'pending', attempts: [] })
      expect(await second.stop()).toBe(0)
    },
    PROCESS_TEST_TIMEOUT,
  )
  it(
    'repeats after each crash at most the attempts in flight, and leases them only for an attempt and a margin',
    async () => {
      const dataDir = join(tills.root(), 'crashes')
      let till = await serve(dataDir)
      const url = receiver.url().replace(RECEIVER_HOST, '127.0.0.1')
      const { endpoint } = WebhookEndpointWithSecret.parse(await call(till.ready, '/v1/webhook-endpoints', { url }))
      // Rounds larger than the dispatcher's 16 attempts in flight, so that batches larger than that would show.
      const rounds = 4
      const perRound = 40
      const payments: string[][] = []
      for (let round = 0; round < rounds; round++) {
        payments.push(
          await Promise.all(
            Array.from({ length: perRound }, async (_, index) => {
              const body = createBody({ referenceId: `crash-${round}-${index}` })
              return ((await call(till.ready, '/v1/merchant/payment', body)) as { paymentId: string }).paymentId
            }),
          ),
        )
      }

      const duplicatesPerKill: number[] = []
      const counted = new Set<string>()
      for (const round of payments) {
        // The kill comes as half the round's events have reached the merchant, the last before it is answered:
        // in the middle of a backlog, whatever Till had sent by then reaches the merchant without being recorded.
        const before = receiver.received.length
        const killed = new Promise<void>((resolve) => {
          onArrival = () => {
            if (receiver.received.length - before < perRound / 2) return
            onArrival = undefined
            till.kill('SIGKILL')
            resolve()
          }
        })
        // Changes still in flight at the kill may not have been made; only the acknowledged ones are checked.
        const changes = await Promise.allSettled(
          round.map((paymentId) => call(till.ready, `/v1/sandbox/payments/${paymentId}/simulate`, { outcome: 'failed' })),
        )
        const acknowledged = round.filter((_, index) => changes[index]?.status === 'fulfilled')
        await killed
        await till.exited()
        const killedAt = Date.now()
        // The merchant drops everything while the restarted Till is asked: what it received came from the killed one.
        receiver.dropAll(true)
        till = await serve(dataDir)

        // A delivery the merchant received that is still pending with no attempt recorded is sent again: a duplicate.
        const { data } = WebhookDeliveryList.parse(await call(till.ready, `/v1/webhook-endpoints/${endpoint.id}/deliveries`))
        const received = new Set(receiver.received.map((_, index) => eventOf(index).id))
        const repeated = data.filter(
          (delivery) =>
            delivery.status === 'pending' && delivery.attempts.length === 0 && received.has(delivery.event.id) && !counted.has(delivery.id),
        )
        for (const delivery of repeated) {
          counted.add(delivery.id)
          // Leased from its claim, before the kill, for the attempt's 10 s and a 5 s margin.
          expect(new Date(delivery.nextAttemptAt ?? 0).getTime()).toBeLessThanOrEqual(killedAt + 15_000)
        }
        duplicatesPerKill.push(repeated.length)
        // None is lost: each acknowledged change's event is delivered, or pending for another attempt.
        const byPayment = new Map(data.map((delivery) => [delivery.event.data.paymentId, delivery.status]))
        for (const paymentId of acknowledged) expect(['delivered', 'pending']).toContain(byPayment.get(paymentId))
        receiver.dropAll(false)
      }
      const total = duplicatesPerKill.reduce((sum, count) => sum + count, 0)
      console.info(
        `webhook duplicates per kill: ${duplicatesPerKill.join(', ')} (${total} over ${rounds} kills of ${rounds * perRound} payments)`,
      )
      // A crash can repeat no more than the attempts in flight: the dispatcher's workers times their batch.
      for (const count of duplicatesPerKill) expect(count).toBeLessThanOrEqual(DISPATCH_IN_FLIGHT)
      expect(await till.stop()).toBe(0)
    },
    PROCESS_TEST_TIMEOUT,
  )
})
