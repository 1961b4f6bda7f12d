import { WEBHOOK_HEADERS, WEBHOOK_RETRY_SCHEDULE_SECONDS } from '@till/contract'
import type { FastifyBaseLogger } from 'fastify'
import { setTimeout as delay } from 'node:timers/promises'
import { type Database, DatabaseUnavailable } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { jobFailed, periodic } from '../core/periodic.ts'
import type { LogoUrl } from '../logos/index.ts'
import { type AttemptOutcome, type AttemptRecord, type ClaimedDelivery, webhookDeliveryStore } from './deliveries.ts'
import { type RefundSnapshotView, type TransferView, webhookEvent } from './events.ts'
import { type SecretSealer, signatureHeader } from './secrets.ts'
import { ATTEMPT_TIMEOUT_MS, type WebhookSender } from './sender.ts'

/** The channel the outbox trigger notifies on commit (migrations/0008_webhooks.sql). */
export const WEBHOOK_CHANNEL = 'till_webhooks'

export type DispatcherOptions = {
  db: Database
  clock: Clock
  sealer: SecretSealer
  logoUrl: LogoUrl
  /** How a transfer.unapplied event shows its transfer (the token's display comes from the EVM configuration). */
  transferView: TransferView
  /** How a refund.* event shows its refund, with its links (refunds/). */
  refundView?: RefundSnapshotView | undefined
  send: WebhookSender
  log: FastifyBaseLogger
  /** How often due deliveries are looked for besides the trigger's notification (retries come due this way). */
  intervalMs: number
  /** Workers: each claims a small batch, sends it, and records every attempt before it claims the next. */
  workers?: number
  /** Deliveries a worker claims at once, and sends side by side. */
  batchSize?: number
  /** How long a claimed delivery is ours: an attempt's deadline, plus time to record it. */
  leaseMs?: number
  /** Jitter source: the delay after failure n is the schedule's ± 10 %. */
  random?: () => number
  /** Told of each attempt once it is recorded: its outcome and how long the merchant took (metrics). */
  attempted?: (outcome: AttemptOutcome['kind'], latencyMs: number) => void
}

/** When the next attempt is due after `failures` failed ones, or undefined when the schedule is spent. */
export function nextAttemptAt(now: Date, failures: number, random: () => number = Math.random): Date | undefined {
  const seconds = WEBHOOK_RETRY_SCHEDULE_SECONDS[failures - 1]
  if (seconds === undefined) return undefined
  const jittered = seconds * 1000 * (0.9 + 0.2 * random())
  return new Date(now.getTime() + Math.round(jittered))
}

// A crash repeats at most the attempts in flight (ADR 21): a few workers, each leasing a small batch for just
// longer than an attempt can take, so a delivery cut off by a crash is retried 15 s later. Measured
// (bench/webhooks, the crash test): one delivery per claim halved a backlog's throughput, since the claim
// is most of the database's work; batches of 100 repeated nearly twice as many per crash mid-backlog.
export const DISPATCH_WORKERS = 4
const DISPATCH_BATCH = 4
/** The most attempts one instance has in flight, and so the most a crash of it can repeat. */
export const DISPATCH_IN_FLIGHT = DISPATCH_WORKERS * DISPATCH_BATCH
const DEFAULT_LEASE_MS = ATTEMPT_TIMEOUT_MS + 5_000
// Within the lease: an attempt recorded after it would be sent again by whoever claims it next.
const RECORD_RETRY_DELAYS_MS = [100, 200, 400, 800, 1_600]

/**
 * Sends what the outbox holds: workers claim due deliveries in small batches (SKIP LOCKED, so instances
 * share the work and never send one attempt twice), sign and POST each, and record each attempt and what
 * follows it before claiming more. Woken by the outbox trigger's NOTIFY, and by a timer for retries and for
 * notifications missed while disconnected.
 */
export function webhookDispatcher(options: DispatcherOptions) {
  const deliveries = webhookDeliveryStore(options.db)
  const workerCount = options.workers ?? DISPATCH_WORKERS
  const batchSize = options.batchSize ?? DISPATCH_BATCH
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS
  const random = options.random ?? Math.random

  function secretsOf(delivery: ClaimedDelivery, now: Date): string[] {
    const { endpoint } = delivery
    const secrets = [options.sealer.open(endpoint.secretSealed)]
    if (endpoint.previousSecretSealed && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now) {
      secrets.push(options.sealer.open(endpoint.previousSecretSealed))
    }
    return secrets
  }

  /** The signed request, or the reason Till could not make it (a secret it cannot open, an event it cannot render). */
  function prepare(delivery: ClaimedDelivery, at: Date) {
    const event = webhookEvent({
      ...delivery.event,
      endpointId: delivery.endpoint.id,
      merchant: delivery.merchant,
      logoUrl: options.logoUrl,
      transferView: options.transferView,
      refundView: options.refundView,
    })
    const body = JSON.stringify(event)
    // Every header the request carries (the sender sets the same two last ones), as the attempt records them.
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Till-webhooks',
      [WEBHOOK_HEADERS.id]: event.id,
      [WEBHOOK_HEADERS.timestamp]: String(Math.floor(at.getTime() / 1000)),
      [WEBHOOK_HEADERS.signature]: signatureHeader(secretsOf(delivery, at), event.id, at, body),
    }
    return { eventId: event.id, body, headers }
  }

  /**
   * One attempt, recorded before the worker moves on. A request Till could not even prepare counts as a
   * failed attempt, so the retry schedule and its end apply instead of a lease renewed forever.
   */
  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const at = options.clock.now()
    const failures = delivery.failures + 1
    let request: ReturnType<typeof prepare>
    try {
      request = prepare(delivery, at)
    } catch (error) {
      options.log.error({ err: error, deliveryId: delivery.id }, 'a webhook attempt could not be prepared')
      const message = `Till could not prepare the delivery: ${error instanceof Error ? error.message : String(error)}`
      const retryAt = nextAttemptAt(at, failures, random)
      const outcome: AttemptOutcome = retryAt ? { kind: 'retry', at: retryAt } : { kind: 'failed', reason: message }
      await record(delivery, { at, statusCode: null, latencyMs: 0, error: message }, outcome)
      options.attempted?.(outcome.kind, 0)
      return
    }
    const result = await options.send(delivery.endpoint.url, request.headers, request.body)
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode <= 299
    const retryAt = ok ? undefined : nextAttemptAt(options.clock.now(), failures, random)
    const error = ok ? null : (result.error ?? `HTTP ${result.statusCode}`)
    const outcome: AttemptOutcome = ok
      ? { kind: 'delivered' }
      : retryAt
        ? { kind: 'retry', at: retryAt }
        : { kind: 'failed', reason: `every attempt to deliver ${request.eventId} failed; the last: ${error}` }
    const sent = { headers: request.headers, body: request.body }
    await record(delivery, { at, statusCode: result.statusCode, latencyMs: result.latencyMs, error, request: sent }, outcome)
    options.attempted?.(outcome.kind, result.latencyMs)
  }

  /**
   * Records an attempt, trying again for a while if the database is away: an attempt that was made but not
   * recorded is made again once the lease ends.
   */
  async function record(delivery: ClaimedDelivery, made: AttemptRecord, outcome: AttemptOutcome): Promise<void> {
    for (const wait of [...RECORD_RETRY_DELAYS_MS, undefined]) {
      try {
        return await deliveries.record(delivery, made, outcome)
      } catch (error) {
        if (!(error instanceof DatabaseUnavailable) || wait === undefined) throw error
        await delay(wait)
      }
    }
  }

  // The pool: at most `workerCount` workers, each claiming and sending until nothing is due. A wake-up (a
  // NOTIFY, the timer) with every worker busy needs nothing: the busy ones claim what is due next.
  let active = 0
  let attempted = 0
  let stopped = false
  let idle = Promise.resolve()
  let settleIdle = () => {}

  async function work(): Promise<void> {
    for (;;) {
      const now = options.clock.now()
      const claimed = await deliveries.claimDue(now, batchSize, new Date(now.getTime() + leaseMs))
      if (claimed.length === 0) return
      // A full batch: more may be due, and another worker can take them meanwhile.
      if (claimed.length === batchSize) wake()
      const attempts = await Promise.allSettled(claimed.map(attempt))
      attempted += claimed.length
      const failed = attempts.find((result) => result.status === 'rejected')
      if (failed) throw failed.reason
    }
  }

  function wake(): void {
    if (stopped || active >= workerCount) return
    if (active === 0) idle = new Promise((resolve) => (settleIdle = resolve))
    active++
    void work()
      .catch(jobFailed(options.log, 'webhook dispatch'))
      .finally(() => {
        active--
        if (active === 0) settleIdle()
      })
  }

  let unsubscribe: (() => Promise<void>) | undefined
  const timer = periodic({ intervalMs: options.intervalMs, run: async () => wake(), name: 'webhook dispatch', log: options.log })

  return {
    /** Sends whatever is due, and resolves once every worker is done, with how many attempts they made. */
    async runOnce(): Promise<number> {
      const before = attempted
      wake()
      await idle
      return attempted - before
    },
    async start(): Promise<void> {
      unsubscribe = await options.db.subscribe(WEBHOOK_CHANNEL, {
        message: wake,
        connected: wake,
        lost: (error) => options.log.warn({ err: error }, 'webhook notifications lost; polling until they return'),
      })
      timer.start()
    },
    async stop(): Promise<void> {
      stopped = true
      await unsubscribe?.()
      await timer.stop()
      await idle
      await options.send.close?.()
    },
  }
}

export type WebhookDispatcher = ReturnType<typeof webhookDispatcher>
