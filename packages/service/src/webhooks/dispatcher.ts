import { WEBHOOK_HEADERS, WEBHOOK_RETRY_SCHEDULE_SECONDS } from '@till/contract'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/port.ts'
import type { Clock } from '../domain/clock.ts'
import { periodic } from '../domain/periodic.ts'
import type { LogoUrl } from '../logos/urls.ts'
import { type AttemptOutcome, type ClaimedDelivery, webhookDeliveryStore } from './deliveries.ts'
import { webhookEvent } from './events.ts'
import { type SecretSealer, signatureHeader } from './secrets.ts'
import type { WebhookSender } from './sender.ts'

/** The channel the outbox trigger notifies on commit (migrations/0008_webhooks.sql). */
export const WEBHOOK_CHANNEL = 'till_webhooks'

export type DispatcherOptions = {
  db: Database
  clock: Clock
  sealer: SecretSealer
  logoUrl: LogoUrl
  send: WebhookSender
  log: FastifyBaseLogger
  /** How often due deliveries are looked for besides the trigger's notification (retries come due this way). */
  intervalMs: number
  batchSize?: number
  /** How long a claimed delivery is ours: longer than an attempt (10 s) can take. */
  leaseMs?: number
  /** Jitter source: the delay after failure n is the schedule's ± 10 %. */
  random?: () => number
}

/** When the next attempt is due after `failures` failed ones, or undefined when the schedule is spent. */
export function nextAttemptAt(now: Date, failures: number, random: () => number = Math.random): Date | undefined {
  const seconds = WEBHOOK_RETRY_SCHEDULE_SECONDS[failures - 1]
  if (seconds === undefined) return undefined
  const jittered = seconds * 1000 * (0.9 + 0.2 * random())
  return new Date(now.getTime() + Math.round(jittered))
}

/**
 * Sends what the outbox holds: claims due deliveries (SKIP LOCKED, so instances share the work and never
 * send one attempt twice), signs and POSTs each, and records the attempt and what follows it. Woken by the
 * outbox trigger's NOTIFY, and by a timer for retries and for notifications missed while disconnected.
 */
export function webhookDispatcher(options: DispatcherOptions) {
  const deliveries = webhookDeliveryStore(options.db)
  const batchSize = options.batchSize ?? 100
  const leaseMs = options.leaseMs ?? 60_000
  const random = options.random ?? Math.random

  function secretsOf(delivery: ClaimedDelivery, now: Date): string[] {
    const { endpoint } = delivery
    const secrets = [options.sealer.open(endpoint.secretSealed)]
    if (endpoint.previousSecretSealed && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now) {
      secrets.push(options.sealer.open(endpoint.previousSecretSealed))
    }
    return secrets
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const at = options.clock.now()
    const event = webhookEvent({ ...delivery.event, merchant: delivery.merchant, logoUrl: options.logoUrl })
    const body = JSON.stringify(event)
    const headers = {
      [WEBHOOK_HEADERS.id]: event.id,
      [WEBHOOK_HEADERS.timestamp]: String(Math.floor(at.getTime() / 1000)),
      [WEBHOOK_HEADERS.signature]: signatureHeader(secretsOf(delivery, at), event.id, at, body),
    }
    const result = await options.send(delivery.endpoint.url, headers, body)
    const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode <= 299
    const failures = delivery.failures + 1
    const after = options.clock.now()
    const retryAt = ok ? undefined : nextAttemptAt(after, failures, random)
    const outcome: AttemptOutcome = ok
      ? { kind: 'delivered' }
      : retryAt
        ? { kind: 'retry', at: retryAt }
        : {
            kind: 'failed',
            reason: `every attempt to deliver ${event.id} failed; the last: ${result.error ?? `HTTP ${result.statusCode}`}`,
          }
    const error = ok ? null : (result.error ?? `HTTP ${result.statusCode}`)
    await deliveries.record(delivery, { at, statusCode: result.statusCode, latencyMs: result.latencyMs, error }, outcome)
  }

  /**
   * An attempt Till could not even prepare (a secret it cannot open, an event it cannot render) counts as a
   * failed attempt, so the retry schedule and its end apply instead of a lease renewed forever.
   */
  async function unprepared(delivery: ClaimedDelivery, error: unknown): Promise<void> {
    options.log.error({ err: error, deliveryId: delivery.id }, 'a webhook attempt could not be prepared')
    const at = options.clock.now()
    const retryAt = nextAttemptAt(at, delivery.failures + 1, random)
    const message = `Till could not prepare the delivery: ${error instanceof Error ? error.message : String(error)}`
    await deliveries
      .record(
        delivery,
        { at, statusCode: null, latencyMs: 0, error: message },
        retryAt ? { kind: 'retry', at: retryAt } : { kind: 'failed', reason: message },
      )
      .catch((recordError) => options.log.error({ err: recordError }, 'a webhook attempt could not be recorded'))
  }

  /** Claims and sends due deliveries until none is due; resolves with how many attempts were made. */
  async function runOnce(): Promise<number> {
    let attempted = 0
    for (;;) {
      const now = options.clock.now()
      const claimed = await deliveries.claimDue(now, batchSize, new Date(now.getTime() + leaseMs))
      if (claimed.length === 0) return attempted
      await Promise.all(claimed.map((delivery) => attempt(delivery).catch((error) => unprepared(delivery, error))))
      attempted += claimed.length
    }
  }

  let wake: (() => void) | undefined
  let running: Promise<unknown> | undefined
  let unsubscribe: (() => Promise<void>) | undefined
  const timer = periodic({
    intervalMs: options.intervalMs,
    run: async () => void (await runOnce()),
    onError: (error) => options.log.error({ err: error }, 'webhook dispatch failed'),
  })

  return {
    runOnce,
    async start(): Promise<void> {
      let again = false
      // One run at a time; a notification during a run asks for one more run after it.
      wake = () => {
        if (running) {
          again = true
          return
        }
        running = runOnce()
          .catch((error) => options.log.error({ err: error }, 'webhook dispatch failed'))
          .finally(() => {
            running = undefined
            if (again) {
              again = false
              wake?.()
            }
          })
      }
      unsubscribe = await options.db.subscribe(WEBHOOK_CHANNEL, {
        message: () => wake?.(),
        connected: () => wake?.(),
        lost: (error) => options.log.warn({ err: error }, 'webhook notifications lost; polling until they return'),
      })
      timer.start()
    },
    async stop(): Promise<void> {
      wake = undefined
      await unsubscribe?.()
      await timer.stop()
      await running
      await options.send.close?.()
    },
  }
}

export type WebhookDispatcher = ReturnType<typeof webhookDispatcher>
