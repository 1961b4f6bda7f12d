// Three `till serve` processes on one PostgreSQL, behind HAProxy running the configuration docs/operations.md
// gives. Under a steady load of creates, status reads, listings and status changes, one instance is killed
// with SIGKILL, then another is stopped with SIGTERM. Counted: acknowledged creates lost, answers other than
// 2xx/4xx, payments made twice for one referenceId, and whether the background jobs (expiry, webhook
// dispatch, statistics compaction) did their work once across the instances.
import type { TillReadyLine } from '@till/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServedTill, useTillProcesses } from '../src/cli/till-process.test-helper.ts'
import { createBody, openTestDatabase, type TestDatabase } from './fixtures.ts'
import { documentedConfig, freePort, haproxyBinary, type RunningHaproxy, startHaproxy } from './haproxy.ts'
import { RECEIVER_HOST, startWebhookReceiver } from './webhook-receiver.ts'

const haproxy = haproxyBinary()
const receiver = await startWebhookReceiver()
afterAll(() => receiver.close())

// Each request is sent once; those that meet a dying instance are counted, not hidden by retries of ours.
const CLIENTS = 6
const REQUESTS = 900
const KILL_AT = REQUESTS / 3
const TERM_AT = (2 * REQUESTS) / 3
// The dispatcher's attempts in flight at once: at most these can reach the merchant twice after a kill.
const ATTEMPTS_IN_FLIGHT = 16

type Answer = { status: number | 'network'; body: unknown }
type Phase = 'all up' | 'one killed' | 'one killed, one stopped'

describe.skipIf(!('path' in haproxy))(
  `three instances behind HAProxy${'missing' in haproxy ? ` (skipped: ${haproxy.missing})` : ''}`,
  () => {
    const tills = useTillProcesses({ prefix: 'till-haproxy-', ca: () => receiver.ca })
    let tdb: TestDatabase
    let proxy: RunningHaproxy | undefined
    beforeAll(async () => {
      tdb = await openTestDatabase()
    })
    afterAll(async () => {
      await proxy?.stop()
      await tdb?.close()
    })

    it('loses no acknowledged create and makes none twice when one instance is killed and another stopped', async () => {
      const common = ['--database-url', tdb.url, '--trust-proxy', '--drain-ms', '3000', '--payment-ttl', '10']
      const instances = await tills.serveSharing(3, common)
      const first = instances[0] as ServedTill
      const key = String(first.ready.apiKey)
      const ports = instances.map((till) => Number(new URL(String(till.ready.baseUrl)).port))
      const port = await freePort()
      proxy = await startHaproxy('path' in haproxy ? haproxy.path : '', documentedConfig(port, ports), port)
      const base = proxy.url
      const ready: TillReadyLine = first.ready
      const headers = { 'api-key': key, 'merchant-id': String(ready.merchantId), 'content-type': 'application/json' }

      async function call(method: string, path: string, payload?: unknown): Promise<Answer> {
        try {
          const response = await fetch(`${base}${path}`, {
            method,
            headers,
            ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
          })
          const text = await response.text()
          return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null }
        } catch {
          return { status: 'network', body: null }
        }
      }

      const hook = receiver.url().replace(RECEIVER_HOST, '127.0.0.1')
      expect((await call('POST', '/v1/webhook-endpoints', { url: hook })).status).toBe(201)

      // The load: each client takes the next request number until all are sent.
      const acknowledged = new Map<string, string>() // referenceId → paymentId
      const unanswered: { referenceId: string; phase: Phase }[] = []
      const failures: { phase: Phase; status: Answer['status']; what: string }[] = []
      const created: string[] = []
      let next = 0
      let phase: Phase = 'all up'
      const stops: Promise<unknown>[] = []
      const record = (what: string, answer: Answer, at: Phase) => {
        if (answer.status === 'network' || answer.status >= 500) failures.push({ phase: at, status: answer.status, what })
      }
      async function client(): Promise<void> {
        for (let request = next++; request < REQUESTS; request = next++) {
          if (request === KILL_AT) {
            instances[0]?.kill('SIGKILL')
            phase = 'one killed'
          }
          if (request === TERM_AT) {
            stops.push(instances[1]?.stop('SIGTERM') ?? Promise.resolve())
            phase = 'one killed, one stopped'
          }
          const at = phase
          const pick = () => created[request % Math.max(1, created.length)]
          switch (request % 4) {
            case 0: {
              const referenceId = `lb-${request}`
              const answer = await call('POST', '/v1/merchant/payment', createBody({ referenceId }))
              record('create', answer, at)
              if (answer.status === 201 || answer.status === 200) {
                const { paymentId } = answer.body as { paymentId: string }
                acknowledged.set(referenceId, paymentId)
                created.push(paymentId)
              } else unanswered.push({ referenceId, phase: at })
              break
            }
            case 1: {
              const paymentId = pick()
              if (paymentId) record('status', await call('GET', `/v1/merchant/payment/${paymentId}/status`), at)
              break
            }
            case 2:
              record('listing', await call('GET', '/v1/merchants/payments?limit=20'), at)
              break
            default: {
              const paymentId = pick()
              if (paymentId) record('simulate', await call('POST', `/v1/sandbox/payments/${paymentId}/simulate`, { outcome: 'failed' }), at)
            }
          }
        }
      }
      await Promise.all(Array.from({ length: CLIENTS }, client))
      await Promise.all(stops)
      expect(await instances[0]?.exited()).not.toBe(0)

      // A client whose create got no answer sends it again, with the same referenceId.
      for (const { referenceId } of unanswered) {
        const again = await call('POST', '/v1/merchant/payment', createBody({ referenceId }))
        expect([200, 201], JSON.stringify(again.body)).toContain(again.status)
        acknowledged.set(referenceId, (again.body as { paymentId: string }).paymentId)
      }

      // Acknowledged creates lost: none.
      const ids = [...acknowledged.values()]
      const stored = await tdb.db.query<{ id: string; reference_id: string }>('SELECT id, reference_id FROM payments WHERE id = ANY ($1)', [
        ids,
      ])
      expect(stored.length).toBe(ids.length)
      // Made twice for one referenceId: two payments whose lives overlapped (one may follow another that ended).
      const twice = await tdb.db.query(
        `SELECT a.reference_id FROM payments a JOIN payments b
            ON b.merchant_id = a.merchant_id AND b.reference_id = a.reference_id AND b.id <> a.id
         WHERE b.created_at >= a.created_at AND b.created_at < a.expires_at
           AND NOT EXISTS (SELECT 1 FROM payment_transitions t WHERE t.payment_id = a.id AND t.at <= b.created_at AND t.to_status <> 'pending')`,
      )
      expect(twice).toEqual([])

      // Failures: only requests in flight on the killed instance; none once it was gone, none from the drain.
      expect(failures.length).toBeLessThanOrEqual(CLIENTS)
      expect(failures.filter((failure) => failure.phase === 'one killed, one stopped')).toEqual([])

      // Expiry: what is still pending reaches its deadline; each payment expired once, whichever instance did it.
      const pending = await tdb.db.query<{ id: string }>(`SELECT id FROM payments WHERE status = 'pending'`)
      // 409: an instance's sweep expired it meanwhile (its 10 s were up).
      for (const { id } of pending)
        expect([200, 409]).toContain((await call('POST', `/v1/sandbox/payments/${id}/reach-deadline`, {})).status)
      const expiredTwice = await tdb.db.query(
        `SELECT payment_id FROM payment_transitions WHERE to_status = 'expired' GROUP BY payment_id HAVING count(*) > 1`,
      )
      expect(expiredTwice).toEqual([])
      const [{ open } = { open: '' }] = await tdb.db.query<{ open: string }>(
        `SELECT count(*) AS open FROM payments WHERE status = 'pending'`,
      )
      expect(Number(open)).toBe(0)

      // Webhooks: every event delivered (those the killed instance held come back when their lease ends);
      // repeats only of attempts in flight at the kill.
      const undelivered = async () =>
        Number((await tdb.db.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'delivered'`))[0]?.n)
      await expect.poll(undelivered, { timeout: 60_000, interval: 250 }).toBe(0)
      const [{ events } = { events: '' }] = await tdb.db.query<{ events: string }>('SELECT count(*) AS events FROM webhook_events')
      const ids2 = receiver.received.map((delivery) => delivery.headers['webhook-id'])
      const distinct = new Set(ids2).size
      expect(distinct).toBe(Number(events))
      const repeated = ids2.length - distinct
      expect(repeated).toBeLessThanOrEqual(ATTEMPTS_IN_FLIGHT)

      // Statistics: every payment counted once, deltas folded once (compaction on whichever instance).
      const unfolded = async () => Number((await tdb.db.query<{ n: string }>('SELECT count(*) AS n FROM payment_stat_deltas'))[0]?.n)
      await expect.poll(unfolded, { timeout: 30_000, interval: 250 }).toBe(0)
      const [{ total } = { total: '' }] = await tdb.db.query<{ total: string }>('SELECT count(*) AS total FROM payments')
      const listing = await call('GET', '/v1/merchants/payments?limit=1')
      expect((listing.body as { stats: { totalTransactions: number } }).stats.totalTransactions).toBe(Number(total))

      console.log(
        `[kill test] ${REQUESTS} requests from ${CLIENTS} clients through HAProxy to 3 instances; ` +
          `creates acknowledged ${ids.length}, lost ${ids.length - stored.length}; ` +
          `failed answers ${failures.length} (${failures.map((f) => `${f.what} ${f.status} while ${f.phase}`).join(', ') || 'none'}); ` +
          `creates sent again ${unanswered.length}, made twice ${twice.length}; ` +
          `payments expired twice ${expiredTwice.length}; webhook events ${events}, deliveries received ${ids2.length}, repeated ${repeated}`,
      )
    }, 180_000)
  },
)
