// Till's database restarting under load, as an operator sees it: kill -9 of the PostgreSQL postmaster while a
// merchant's backend creates payments, three times, for Till's embedded server (Till restarts it) and for an
// external one behind --database-url (the operator restarts it). Till stays up, answers 503 meanwhile,
// recovers by itself, and loses or doubles no payment.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorBody, type TillReadyLine, WebhookEvent } from '@till/contract'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { embeddedData } from '../../test/checkout-fixtures.ts'
import { onServer } from '../../test/database.ts'
import { RECEIVER_HOST, startWebhookReceiver } from '../../test/webhook-receiver.ts'
import { type ServedTill, useTillProcesses } from '../cli/till-process.test-helper.ts'
import { createLoad, type CreateLoad, headersOf } from './create-load.test-helper.ts'
import { isAlive } from './embedded/processes.ts'
import { type EmbeddedServer, startEmbeddedServer } from './embedded/server.ts'

// Two Tills and their PostgreSQL servers, restarted three times each, on a busy 2-core machine.
const PROCESS_TEST_TIMEOUT = 180_000
const KILLS = 3
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
async function expectRecovered(till: ServedTill, load: CreateLoad, databaseUrl: string) {
  // The listening connection is back, on every channel: other instances' changes reach this one again.
  await vi.waitFor(
    async () => {
      const listening = await onServer(databaseUrl, (client) =>
        client.query<{ query: string }>("SELECT query FROM pg_stat_activity WHERE query LIKE 'LISTEN %' ORDER BY query"),
      )
      expect(listening.rows.map((row) => row.query)).toEqual([
        'LISTEN "till_api_key_revoked"; LISTEN "till_payment_listing"; LISTEN "till_payment_status"; LISTEN "till_webhooks"',
      ])
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
  // Every acknowledged create is stored, and once: a 503'd create retried with its referenceId got the
  // payment its first try made, if any, never a second one.
  const paymentOf = new Map<string, Set<string>>()
  for (const { referenceId, paymentId } of load.outcomes) {
    if (paymentId) paymentOf.set(referenceId, (paymentOf.get(referenceId) ?? new Set()).add(paymentId))
  }
  expect([...paymentOf.values()].filter((ids) => ids.size > 1)).toEqual([])
  const acknowledged = [...paymentOf.values()].flatMap((ids) => [...ids])
  const stored = await onServer(databaseUrl, async (client) => {
    const rows = await client.query<{ id: string; reference_id: string }>('SELECT id, reference_id FROM payments WHERE id = ANY($1)', [
      acknowledged,
    ])
    return rows.rows
  })
  expect(stored).toHaveLength(acknowledged.length)
  for (const row of stored) expect(paymentOf.get(row.reference_id)).toEqual(new Set([row.id]))
  expect(till.gone()).toBe(false)
  expect(isAlive(till.pid)).toBe(true)
  return { creates: acknowledged.length, unavailable: load.outcomes.filter((outcome) => outcome.status === 503).length }
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
