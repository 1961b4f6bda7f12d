import type { FastifyBaseLogger } from 'fastify'
import type { Database } from './db/port.ts'
import type { Clock } from './core/clock.ts'
import type { EvmConfig, EvmTiming } from './evm/index.ts'
import type { RateLimit } from './http/rate-limit.ts'
import type { LogoFetchOptions } from './logos/index.ts'
import type { TillMetrics } from './metrics/index.ts'

// What createApp is given: the service's settings, with their defaults, and what it runs on.

export type AppConfig = {
  sandbox: boolean
  paymentTtlSeconds: number
  /** The status polling interval suggested to merchants (`pollInMs`). */
  pollInMs: number
  /** The absolute base address of the hosted checkout page, no trailing slash: gatewayUrl is `<checkoutUrl>/<paymentId>`. */
  checkoutUrl: () => string
  /** The service's own address for people (the dashboard, its invitation links); by default the checkout's origin. */
  publicUrl?: () => string
  /** How long an API key record is trusted before it is read again. */
  authCacheTtlMs?: number
  /** Days webhook events, their deliveries and attempts are kept once none is due (30). */
  webhookRetentionDays?: number
  /** How often each background job runs; 0 turns one off (tests drive them by hand). */
  jobs?: Partial<JobIntervals>
  bodyLimitBytes?: number
  /** Payment statuses kept in memory for status reads (0: none). */
  statusCacheEntries?: number
  /** The client address comes from X-Forwarded-For: set it behind a reverse proxy, never otherwise. */
  trustProxy?: boolean
  /** How long the sandbox's slow test wallet keeps a payment processing. */
  sandboxSlowConfirmMs?: number
  /**
   * The slow test wallet's confirmation waits, however long, for POST /v1/sandbox/payments/{id}/confirm:
   * tests release it when they are ready instead of racing `sandboxSlowConfirmMs`.
   */
  sandboxHoldConfirmations?: boolean
  /** Requests per window the checkout page's routes take per client address and per payment. */
  checkoutRateLimits?: Partial<CheckoutRateLimits>
  /** Requests per window /v1 takes per API key, and failed authentications per client address. */
  apiRateLimits?: Partial<ApiRateLimits>
  /** How long a client has to send a request, and keeps an idle connection; tests set tiny values. */
  httpTimeouts?: Partial<HttpTimeouts>
}

export type CheckoutRateLimits = { perIp: RateLimit; perPayment: RateLimit; actionsPerPayment: RateLimit }

// A page load is 3 requests and a long-poll one every 25 s; a buyer retrying by hand stays far below these.
export const DEFAULT_CHECKOUT_LIMITS: CheckoutRateLimits = {
  perIp: { limit: 600, windowMs: 60_000 },
  perPayment: { limit: 240, windowMs: 60_000 },
  actionsPerPayment: { limit: 20, windowMs: 60_000 },
}

export type ApiRateLimits = { perKey: RateLimit; authFailuresPerAddress: RateLimit }

// Ceilings, not shares: one instance serves about 30,000 status reads a second to `pnpm bench` (one key,
// one address), a merchant polling a thousand payments every 2 s makes 30,000 requests a minute. Sharing
// an instance fairly between partners takes lower values, set by its operator (ADR 14). Failures are few
// by nature: a client with a wrong key gets its answer and should stop.
export const DEFAULT_API_LIMITS: ApiRateLimits = {
  perKey: { limit: 3_000_000, windowMs: 60_000 },
  authFailuresPerAddress: { limit: 60, windowMs: 60_000 },
}

export type HttpTimeouts = {
  /** From the first byte of a request (or the connection) to the end of its headers. */
  headersMs: number
  /** From the first byte of a request to the end of its body; responses, long-polls included, are not counted. */
  requestMs: number
  /** How long a connection may stay idle between requests. */
  keepAliveMs: number
}

// A stalled or trickling client must not hold a socket for long, yet 30 s carries the 64 KiB body limit
// over a poor mobile link. Idle connections outlive the 60 s idle timeout of common proxies and load
// balancers, so that they close first rather than reuse a connection Till is closing.
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000 }

export type AppDeps = {
  db: Database
  config: AppConfig
  clock?: Clock
  logger?: FastifyBaseLogger
  /**
   * How outbound requests (logo fetches, webhook deliveries) resolve and trust hosts beyond the config
   * (tests: an injected DNS lookup, a test CA). Loopback hosts are allowed in sandbox mode only, whatever
   * is given here.
   */
  outbound?: Pick<LogoFetchOptions, 'lookup' | 'ca' | 'onDial'>
  /** Real payments on EVM chains: the operator's checked configuration (`till serve --config`). */
  evm?: { config: EvmConfig; timing?: Partial<EvmTiming> }
  /** Where the app counts what it does; `till serve --metrics-port` serves them. A private set when absent. */
  metrics?: TillMetrics
  /**
   * A streaming replica for the listing's reads (`--replica-database-url`, ADR 36), used while it is at most
   * `maxLagMs` behind the primary.
   */
  replica?: { db: Database; maxLagMs: number }
}

// Blocks come every 2 to 12 s on the chains Till knows; a transaction missing for 30 minutes is gone (ADR 23).
// The watcher asks each network's head twice a second: a transfer is found within half a second of its block.
export const DEFAULT_EVM_TIMING: EvmTiming = { intervalMs: 2_000, recheckMs: 2_000, dropAfterMs: 30 * 60_000, watchIntervalMs: 500 }

/** The background jobs, each with its own switch: a job runs only while its interval is above 0. */
export type JobIntervals = {
  /** Pending payments past their deadline are expired; at 0, reads and callers expire them. */
  expirySweepMs: number
  /** Due webhook deliveries are looked for (besides the outbox's NOTIFY): retries come due this way. */
  webhookDispatchMs: number
  /** The listing statistics' deltas are folded into the rollups. */
  statsCompactionMs: number
  /** The sandbox's slow test wallet's confirmations: a few times a second, so "a few seconds" is exact. */
  sandboxConfirmationsMs: number
  /** Rows past their retention are pruned (webhook events, idempotency keys, sessions, the audit log). */
  retentionMs: number
  /** How far behind the primary the read replica is, when there is one. */
  replicaCheckMs: number
}

export const DEFAULT_JOBS: JobIntervals = {
  expirySweepMs: 1_000,
  webhookDispatchMs: 1_000,
  statsCompactionMs: 1_000,
  sandboxConfirmationsMs: 250,
  retentionMs: 60_000,
  replicaCheckMs: 1_000,
}
