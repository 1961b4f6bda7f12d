import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import type { PoolStats } from '../db/port.ts'

/** What the gauges read at each scrape (database.ts reads it from the database). Undefined: not known now. */
export type ScrapeSource = {
  pool(): PoolStats | undefined
  /** Webhook deliveries by status, for pending and held. */
  backlog(): Promise<Record<string, number> | undefined>
  /** Followed transactions by network. */
  watches(): Promise<Record<string, number> | undefined>
  /** The watcher's next block to read, by network. */
  cursors(networks: string[]): Promise<Record<string, bigint> | undefined>
}

/**
 * Every metric Till exports, in one place: its name, what it counts and its labels (docs/operations.md lists
 * the same, and a test keeps the two equal). Counters and histograms count what this instance did; the
 * gauges marked "database-wide" are read from the database at each scrape, so every instance reports the
 * same value (use `max`, not `sum`, across instances).
 */
export function tillMetrics(options: { process?: boolean } = {}) {
  const registry = new Registry()
  const registers = [registry]
  if (options.process) collectDefaultMetrics({ register: registry })
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
  let source: ScrapeSource | undefined
  const chainHeads = new Map<string, bigint>()

  return {
    registry,
    /** Where the gauges read from at each scrape: the app's database. */
    readFrom(from: ScrapeSource) {
      source = from
    },
    /** The last head each network's RPC reported to this instance: the watcher's lag is measured against it. */
    chainHeads,
    // The pool first: a scrape reads it before its own queries (the gauges below) take a connection.
    dbConnections: new Gauge({
      name: 'till_db_pool_connections',
      help: "This instance's database pool: connections by state (idle, busy) and its size (max).",
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = source?.pool()
        if (!stats) return
        this.set({ state: 'idle' }, stats.idle)
        this.set({ state: 'busy' }, stats.total - stats.idle)
        this.set({ state: 'max' }, stats.max)
      },
    }),
    dbWaiting: new Gauge({
      name: 'till_db_pool_waiting',
      help: 'Queries waiting for a free pooled connection right now.',
      registers,
      collect() {
        const stats = source?.pool()
        if (stats) this.set(stats.waiting)
      },
    }),
    dbWaits: new Counter({
      name: 'till_db_pool_waits_total',
      help: 'Queries that found every pooled connection busy and had to wait for one.',
      registers,
      collect() {
        const stats = source?.pool()
        if (!stats) return
        this.reset()
        this.inc(stats.waits)
      },
    }),
    httpRequests: new Counter({
      name: 'till_http_requests_total',
      help: 'HTTP requests answered on the public port, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'till_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer sent, by method and route pattern.',
      labelNames: ['method', 'route'] as const,
      buckets: seconds,
      registers,
    }),
    rateLimited: new Counter({
      name: 'till_rate_limit_refusals_total',
      help: 'Requests refused with 429 by a rate limit, by route pattern.',
      labelNames: ['route'] as const,
      registers,
    }),
    paymentsCreated: new Counter({
      name: 'till_payments_created_total',
      help: 'Payments created (a replayed create is not counted).',
      registers,
    }),
    paymentTransitions: new Counter({
      name: 'till_payment_transitions_total',
      help: 'Payment status changes committed, by from and to status.',
      labelNames: ['from', 'to'] as const,
      registers,
    }),
    webhookBacklog: new Gauge({
      name: 'till_webhook_backlog',
      help: 'Webhook deliveries not yet done, by status: pending (due or waiting for a retry) or held (endpoint disabled). Database-wide.',
      labelNames: ['status'] as const,
      registers,
      async collect() {
        const counts = await source?.backlog()
        for (const [status, count] of Object.entries(counts ?? {})) this.set({ status }, count)
      },
    }),
    webhookAttempts: new Counter({
      name: 'till_webhook_attempts_total',
      help: 'Webhook delivery attempts made, by outcome: delivered, retry (failed, another attempt scheduled) or failed (the last).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    webhookLatency: new Histogram({
      name: 'till_webhook_attempt_duration_seconds',
      help: "Time a webhook attempt took, from the request sent to the merchant's answer (or the error).",
      buckets: seconds,
      registers,
    }),
    chainLag: new Gauge({
      name: 'till_chain_watcher_lag_blocks',
      help: "Blocks between a network's head (as this instance last saw it) and the chain watcher's cursor, by network. Database-wide cursor.",
      labelNames: ['network'] as const,
      registers,
      async collect() {
        if (chainHeads.size === 0) return
        const cursors = await source?.cursors([...chainHeads.keys()])
        for (const [network, next] of Object.entries(cursors ?? {})) {
          const lag = (chainHeads.get(network) ?? next - 1n) + 1n - next
          this.set({ network }, Number(lag > 0n ? lag : 0n))
        }
      },
    }),
    chainWatches: new Gauge({
      name: 'till_chain_follower_watches',
      help: 'Transactions the follower is following until they have their confirmations, by network. Database-wide.',
      labelNames: ['network'] as const,
      registers,
      async collect() {
        const counts = await source?.watches()
        if (!counts) return
        // A network none is followed on any more reads 0, not its last count.
        for (const network of chainHeads.keys()) this.set({ network }, 0)
        for (const [network, count] of Object.entries(counts)) this.set({ network }, count)
      },
    }),
    chainRpcErrors: new Counter({
      name: 'till_chain_rpc_errors_total',
      help: "Failed or timed-out RPC calls of the chain watcher's and the follower's passes, by network and job.",
      labelNames: ['network', 'job'] as const,
      registers,
    }),
    logoImports: new Counter({
      name: 'till_logo_imports_total',
      help: 'Merchant logo imports, by outcome: imported, refused (not a usable image, or its host refused) or busy (too many at once).',
      labelNames: ['outcome'] as const,
      registers,
    }),
  }
}

export type TillMetrics = ReturnType<typeof tillMetrics>
