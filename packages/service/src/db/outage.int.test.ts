// Till's database restarting under load, as an operator sees it: kill -9 of the PostgreSQL postmaster while a
// merchant's backend creates payments, three times, for Till's embedded server (Till restarts it) and for an
// external one behind --database-url (the operator restarts it). Till stays up, answers 503 meanwhile,
// recovers by itself, and loses or doubles no payment.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as pace } from 'node:timers/promises'
import { ErrorBody, type TillReadyLine, WebhookEvent } from '@till/contract'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { embeddedData } from '../../test/checkout-fixtures.ts'
import { onServer } from '../../test/database.ts'
import { RECEIVER_HOST, startWebhookReceiver } from '../../test/webhook-receiver.ts'
import { type ServedTill, useTillProcesses } from '../cli/till-process.test-helper.ts'
import { isAlive } from './embedded/processes.ts'
import { type EmbeddedServer, startEmbeddedServer } from './embedded/server.ts'

// Two Tills and their PostgreSQL servers, restarted three times each, on a busy 2-core machine.
const PROCESS_TEST_TIMEOUT = 180_000
const KILLS = 3
// The load is bounded: two clients, a short pause between their requests, and a ceiling on the count.
const CLIENTS = 2
const PACE_MS = 10
const MAX_CREATES = 20_000

type Outcome = { at: number; status: number; referenceId: string; paymentId?: string; problem?: string }

const headersOf = (ready: TillReadyLine) => ({
  'api-key': String(ready.apiKey),
  'merchant-id': String(ready.merchantId),
  'content-type': 'application/json',
})

/** One create, and whatever is wrong with its answer: anything but a 201, a replay's 200 or a 503 in the spec's shape. */
async function create(ready: TillReadyLine, referenceId: string): Promise<Outcome> {
  try {
    const response = await fetch(`${String(ready.baseUrl)}/v1/merchant/payment`, {
      method: 'POST',
      headers: headersOf(ready),
      body: JSON.stringify({ amount: { unit: 'iso4217/EUR', value: '1250' }, referenceId }),
      // Nothing may hang: a request gets its answer within the request timeout.
      signal: AbortSignal.timeout(30_000),
    })
    const body = (await response.json()) as Record<string, unknown>
    const outcome: Outcome = { at: performance.now(), status: response.status, referenceId }
    if (response.status === 201 || response.status === 200) return { ...outcome, paymentId: String(body.paymentId) }
    const error = ErrorBody.safeParse(body)
    const retryAfter = Number(response.headers.get('retry-after'))
    if (response.status === 503 && error.success && error.data.code === 'service_unavailable' && retryAfter >= 1) return outcome
    return { ...outcome, problem: `${response.status} ${JSON.stringify(body)} (Retry-After: ${response.headers.get('retry-after')})` }
  } catch (error) {
    return { at: performance.now(), status: 0, referenceId, problem: `no answer: ${(error as Error).message}` }
  }
}

/** A merchant's backend creating payments without let-up; a 503 is retried with the same referenceId. */
function createLoad(ready: TillReadyLine) {
  const outcomes: Outcome[] = []
  let stopped = false
  let next = 0
  const client = async () => {
    while (!stopped && next < MAX_CREATES) {
      const referenceId = `load-${next++}`
      for (;;) {
        const outcome = await create(ready, referenceId)
        outcomes.push(outcome)
        await pace(PACE_MS)
        if (outcome.status !== 503 || stopped) break
      }
    }
  }
  const clients = Promise.all(Array.from({ length: CLIENTS }, client))
  return {
    outcomes,
    succeededAfter: (at: number) => outcomes.find((outcome) => outcome.paymentId !== undefined && outcome.at > at),
    async stop() {
      stopped = true
      await clients
    },
  }
}

/** What postmaster.pid says: the server's pid, port and state ("ready" once it accepts connections). */
async function postmaster(dataDir: string) {
  const lines = (await readFile(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')
  return { pid: Number(lines[0]), port: Number(lines[3]), state: lines[7]?.trim() }
}

const receiver = await startWebhookReceiver()
const tills = useTillProcesses({ prefix: 'till-outage-', ca: () => receiver.ca })
const servers: EmbeddedServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  await receiver.close()
})

async function call(ready: TillReadyLine, path: string, init: { payload?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${String(ready.baseUrl)}${path}`, {
    method: init.payload === undefined ? 'GET' : 'POST',
    headers: { ...headersOf(ready), ...init.headers },
    ...(init.payload === undefined ? {} : { body: JSON.stringify(init.payload) }),
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> }
}

/** A new payment's checkout page, opened as a buyer would: its id and the token its gateway calls carry. */
async function openCheckout(ready: TillReadyLine) {
  const created = await call(ready, '/v1/merchant/payment', {
    payload: { amount: { unit: 'iso4217/EUR', value: '990' }, referenceId: `page-${performance.now()}` },
  })
  expect(created.status).toBe(201)
  const page = await fetch(String(created.body.gatewayUrl))
  return { paymentId: String(created.body.paymentId), token: embeddedData(await page.text()).token }
}

const checkoutUrlOf = (ready: TillReadyLine) => String(ready.checkoutUrl)

/** The page's long-poll: answers when the payment is no longer pending, or after 20 s. */
function longPoll(ready: TillReadyLine, checkout: { paymentId: string; token: string }) {
  return call(ready, `/checkout/api/payments/${checkout.paymentId}/status?after=pending&waitMs=20000`, {
    headers: { 'checkout-token': checkout.token },
  })
}

/** A Till with a merchant's webhook endpoint, and a merchant's backend creating payments on it without let-up. */
async function tillUnderLoad(args: string[]) {
  const till = await tills.serve(args)
  const endpoint = await call(till.ready, '/v1/webhook-endpoints', {
    payload: { url: receiver.url().replace(RECEIVER_HOST, '127.0.0.1') },
  })
  expect(endpoint.status).toBe(201)
  return { till, load: createLoad(till.ready) }
}

/** After the restarts: notifications, the long-poll and the webhook dispatcher work again; nothing was lost or doubled. */
async function expectRecovered(till: ServedTill, load: ReturnType<typeof createLoad>, databaseUrl: string) {
  // Both LISTEN connections are back: other instances' changes reach this one again.
  await vi.waitFor(
    async () => {
      const listening = await onServer(databaseUrl, (client) =>
        client.query<{ query: string }>("SELECT query FROM pg_stat_activity WHERE query LIKE 'LISTEN %' ORDER BY query"),
      )
      expect(listening.rows.map((row) => row.query)).toEqual(['LISTEN "till_payment_status"', 'LISTEN "till_webhooks"'])
    },
    { timeout: 10_000, interval: 50 },
  )
  const checkout = await openCheckout(till.ready)
  const waiting = longPoll(till.ready, checkout)
  expect((await call(till.ready, `/v1/sandbox/payments/${checkout.paymentId}/simulate`, { payload: { outcome: 'failed' } })).status).toBe(
    200,
  )
  expect(await waiting).toMatchObject({ status: 200, body: { status: 'failed' } })
  await vi.waitFor(
    () => {
      const events = receiver.received.map((received) => WebhookEvent.parse(JSON.parse(received.body)))
      expect(events.map((event) => event.data.paymentId)).toContain(checkout.paymentId)
    },
    { timeout: 10_000, interval: 50 },
  )

  await load.stop()
  expect(load.outcomes.filter((outcome) => outcome.problem !== undefined)).toEqual([])
  const acknowledged = load.outcomes.flatMap((outcome) => (outcome.paymentId ? [outcome.paymentId] : []))
  const { stored, doubled } = await onServer(databaseUrl, async (client) => ({
    stored: (await client.query<{ id: string }>('SELECT id FROM payments WHERE id = ANY($1)', [acknowledged])).rows.length,
    doubled: (
      await client.query(
        "SELECT reference_id FROM payments WHERE reference_id LIKE 'load-%' GROUP BY merchant_id, reference_id HAVING count(*) > 1",
      )
    ).rows,
  }))
  // Every acknowledged create is stored, once: a 503'd create retried with its referenceId was not made twice.
  expect(stored).toBe(new Set(acknowledged).size)
  expect(doubled).toEqual([])
  expect(till.gone()).toBe(false)
  expect(isAlive(till.pid)).toBe(true)
  return { creates: new Set(acknowledged).size, unavailable: load.outcomes.filter((outcome) => outcome.status === 503).length }
}

describe('till serve while its PostgreSQL server is killed and restarted under load', () => {
  it(
    'on an external server: answers 503 while it is down, and serves again as soon as the operator restarts it',
    async () => {
      const dataDir = join(tills.root(), 'external')
      // The operator's server: Till's own embedded binaries, started by the test and never restarted for it.
      let server = await startEmbeddedServer({ dataDir, restarts: { max: 0, withinMs: 60_000 } })
      servers.push(server)
      const url = server.url()
      const { till, load } = await tillUnderLoad(['--database-url', url])
      const recoveries: number[] = []
      for (let kill = 1; kill <= KILLS; kill++) {
        await vi.waitFor(() => expect(load.succeededAfter(performance.now() - 1_000)).toBeDefined(), { timeout: 10_000, interval: 20 })
        const checkout = await openCheckout(till.ready)
        const waiting = longPoll(till.ready, checkout)
        const killedAt = performance.now()
        process.kill((await postmaster(dataDir)).pid, 'SIGKILL')
        await server.exited
        await server.stop()

        // Down: creates answer 503 in the spec's shape, and the waiting long-poll ends with a 503 too.
        await vi.waitFor(() => expect(load.outcomes.some((o) => o.at > killedAt && o.status === 503)).toBe(true), {
          timeout: 10_000,
          interval: 20,
        })
        const ended = await waiting
        expect(ended.status).toBe(503)
        expect(ErrorBody.parse(ended.body).code).toBe('service_unavailable')
        expect(Number(ended.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
        // A buyer opening the checkout page meanwhile gets a page that reloads itself, not the API's JSON.
        const page = await fetch(`${checkoutUrlOf(till.ready)}/${checkout.paymentId}`)
        expect(page.status).toBe(503)
        expect(page.headers.get('content-type')).toMatch(/^text\/html/)
        expect(await page.text()).toMatch(/<meta http-equiv="refresh" content="\d+">[\s\S]*Checkout is briefly unavailable/)

        // Up again, on the same port: creates succeed within 5 s of the server accepting connections.
        server = await startEmbeddedServer({ dataDir, port: server.port, restarts: { max: 0, withinMs: 60_000 } })
        servers.push(server)
        const acceptingAt = performance.now()
        await vi.waitFor(() => expect(load.succeededAfter(acceptingAt)).toBeDefined(), { timeout: 5_000, interval: 20 })
        recoveries.push(Math.round((load.succeededAfter(acceptingAt)?.at ?? 0) - acceptingAt))
      }
      const totals = await expectRecovered(till, load, url)
      console.info(
        `external server, ${KILLS} kills: first create ${recoveries.join(', ')} ms after the server accepted connections; ` +
          `${totals.creates} payments created, ${totals.unavailable} answers 503`,
      )
      expect(await till.stop()).toBe(0)
    },
    PROCESS_TEST_TIMEOUT,
  )

  it(
    'on its embedded server: restarts it on the same data, and serves on in the same process',
    async () => {
      const dataDir = join(tills.root(), 'embedded')
      const { till, load } = await tillUnderLoad(['--data-dir', dataDir])
      const recoveries: number[] = []
      for (let kill = 1; kill <= KILLS; kill++) {
        await vi.waitFor(() => expect(load.succeededAfter(performance.now() - 1_000)).toBeDefined(), { timeout: 10_000, interval: 20 })
        const killed = await postmaster(dataDir)
        process.kill(killed.pid, 'SIGKILL')

        // Till starts a new server on the same data and port; creates succeed within 5 s of it accepting connections.
        await vi.waitFor(
          async () => {
            const restarted = await postmaster(dataDir)
            expect(restarted.pid).not.toBe(killed.pid)
            expect(restarted).toMatchObject({ port: killed.port, state: 'ready' })
          },
          { timeout: 30_000, interval: 20 },
        )
        const acceptingAt = performance.now()
        await vi.waitFor(() => expect(load.succeededAfter(acceptingAt)).toBeDefined(), { timeout: 5_000, interval: 20 })
        recoveries.push(Math.round((load.succeededAfter(acceptingAt)?.at ?? 0) - acceptingAt))
        expect(till.stderr()).toContain(`restarting it on the same data (restart ${kill} of at most 5 within 10 minutes)`)
      }
      const password = (await readFile(join(dataDir, 'password'), 'utf8')).trim()
      const { port } = await postmaster(dataDir)
      const totals = await expectRecovered(till, load, `postgres://till:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`)
      console.info(
        `embedded server, ${KILLS} kills: first create ${recoveries.join(', ')} ms after the restarted server accepted connections; ` +
          `${totals.creates} payments created, ${totals.unavailable} answers 503`,
      )
      expect(await till.stop()).toBe(0)
    },
    PROCESS_TEST_TIMEOUT,
  )
})
