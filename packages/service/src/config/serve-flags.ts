import { API_VERSIONS } from '@till/contract'
import { z } from 'zod'
import { flag, flagShape } from './flag.ts'
import {
  booleanFlag,
  databaseUrlFlag,
  httpUrlFlag,
  integerFlag,
  jsonFlag,
  ONE_STORAGE_MESSAGE,
  oneStorage,
  STORAGE_FLAGS,
} from './flags.ts'

/** Every `till serve` flag, in the order `--help` lists them. */
export const SERVE_FLAGS = {
  port: flag({
    type: 'string',
    value: 'N',
    env: 'TILL_PORT',
    schema: integerFlag(0, 65_535, '0 picks any free port').default(4000),
    help: 'Port to listen on; 0 picks any free port',
  }),
  host: flag({
    type: 'string',
    value: 'HOST',
    env: 'TILL_HOST',
    schema: z.string().min(1).default('127.0.0.1'),
    help: 'Address to listen on',
  }),
  'data-dir': STORAGE_FLAGS['data-dir'],
  'database-url': {
    ...STORAGE_FLAGS['database-url'],
    note: 'With neither: an embedded PostgreSQL server in a temporary directory, removed at exit (nothing is kept)',
  },
  'replica-database-url': flag({
    type: 'string',
    value: 'URL',
    env: 'TILL_REPLICA_DATABASE_URL',
    schema: databaseUrlFlag.optional(),
    help: 'A streaming replica of the database, for the listing and its statistics while it keeps up\n(ADR 36)',
  }),
  'replica-max-lag-ms': flag({
    type: 'string',
    value: 'MS',
    env: 'TILL_REPLICA_MAX_LAG_MS',
    schema: integerFlag(100, 600_000, 'milliseconds the replica may lag before reads go back to the primary, 100 to 600000').default(5_000),
    help: 'How far the replica may lag the primary before the listing reads the primary again',
  }),
  sandbox: flag({
    type: 'boolean',
    env: 'TILL_SANDBOX',
    schema: booleanFlag.default(false),
    help: 'Sandbox mode: a test partner, merchant and API key, and the simulate endpoint',
  }),
  'sandbox-api-version': flag({
    type: 'string',
    value: 'V',
    env: 'TILL_SANDBOX_API_VERSION',
    schema: z.enum(API_VERSIONS, { message: `must be one of ${API_VERSIONS.join(', ')}` }).optional(),
    help: "Pin the sandbox partner to this Pay-Version (the versions' rules can then be tried)",
  }),
  'sandbox-api-key': flag({
    type: 'string',
    value: 'K',
    env: 'TILL_SANDBOX_API_KEY',
    schema: z
      .string()
      .regex(/^till_sk_test_/, { message: 'must be a sandbox key (till_sk_test_…), as printed by an earlier `till serve --sandbox`' })
      .optional(),
    help: 'Keep this sandbox key instead of issuing a new one',
  }),
  'payment-ttl': flag({
    type: 'string',
    value: 'SEC',
    env: 'TILL_PAYMENT_TTL',
    schema: integerFlag(10, 7 * 24 * 3600, 'seconds a buyer has to pay, 10 s to 7 days').default(900),
    help: 'Seconds a buyer has before a payment expires',
  }),
  'poll-ms': flag({
    type: 'string',
    value: 'MS',
    env: 'TILL_POLL_MS',
    schema: integerFlag(250, 60_000, 'milliseconds between status polls suggested to merchants').default(2_000),
    help: 'Status polling interval suggested to merchants',
  }),
  'webhook-retention-days': flag({
    type: 'string',
    value: 'DAYS',
    env: 'TILL_WEBHOOK_RETENTION_DAYS',
    schema: integerFlag(1, 3650, 'days webhook events are kept once delivered or given up, 1 to 3650').default(30),
    help: 'Days webhook events, their deliveries and attempts are kept once none is due',
  }),
  'drain-ms': flag({
    type: 'string',
    value: 'MS',
    env: 'TILL_DRAIN_MS',
    schema: integerFlag(0, 600_000, 'milliseconds to keep serving after SIGTERM while health checks answer 503, 0 to 10 min').default(0),
    help: 'On SIGTERM or SIGINT, serve this long with /healthz and /readyz at 503 (a load balancer\ndrains the instance), then close',
  }),
  'metrics-port': flag({
    type: 'string',
    value: 'N',
    env: 'TILL_METRICS_PORT',
    schema: integerFlag(0, 65_535, '0 picks any free port').optional(),
    help: 'Serve Prometheus metrics at GET /metrics on this port, a listener of its own (never the\npublic port); 0 picks any free port. Off without it',
  }),
  'metrics-host': flag({
    type: 'string',
    value: 'HOST',
    env: 'TILL_METRICS_HOST',
    schema: z.string().min(1).default('127.0.0.1'),
    help: 'Address the metrics listener binds to',
  }),
  config: flag({
    type: 'string',
    value: 'FILE',
    env: 'TILL_CONFIG',
    schema: z.string().min(1, { error: 'must name a JSON file' }).optional(),
    help: 'EVM payments: networks, tokens and rates (JSON; see docs/operating.md)\nWithout it, only sandbox payments can be paid',
  }),
  'public-url': flag({
    type: 'string',
    value: 'URL',
    env: 'TILL_PUBLIC_URL',
    schema: httpUrlFlag.optional(),
    help: "The service's address for clients (default: where it listens)",
  }),
  'checkout-url': flag({
    type: 'string',
    value: 'URL',
    env: 'TILL_CHECKOUT_URL',
    schema: httpUrlFlag.optional(),
    help: 'Base address of the hosted checkout page\n(default: <public-url>/checkout)',
  }),
  'log-level': flag({
    type: 'string',
    value: 'LEVEL',
    env: 'TILL_LOG_LEVEL',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    help: 'fatal, error, warn, info, debug, trace or silent',
  }),
  'status-cache-size': flag({
    type: 'string',
    value: 'N',
    env: 'TILL_STATUS_CACHE_SIZE',
    schema: integerFlag(0, 10_000_000, 'payment statuses kept in memory for reads; 0 turns the cache off').default(100_000),
    help: 'Payment statuses kept in memory for status reads; 0 turns the cache off',
  }),
  'sandbox-confirm-ms': flag({
    type: 'string',
    value: 'MS',
    env: 'TILL_SANDBOX_CONFIRM_MS',
    schema: integerFlag(0, 600_000, "milliseconds the slow test wallet's payments stay processing").default(8_000),
    help: "How long the slow test wallet's payments stay processing",
  }),
  'sandbox-hold-confirmations': flag({
    type: 'boolean',
    env: 'TILL_SANDBOX_HOLD_CONFIRMATIONS',
    schema: booleanFlag.default(false),
    help: "Keep the slow test wallet's payments processing until POST /v1/sandbox/payments/{id}/confirm (for tests: no timer to race), instead of --sandbox-confirm-ms",
  }),
  'trust-proxy': flag({
    type: 'boolean',
    env: 'TILL_TRUST_PROXY',
    schema: booleanFlag.default(false),
    help: 'Take the client address from X-Forwarded-For (behind a reverse proxy), for the rate limits per address',
  }),
  'api-rate-limit': flag({
    type: 'string',
    value: 'N',
    env: 'TILL_API_RATE_LIMIT',
    schema: integerFlag(1, 1_000_000_000, 'requests per minute one API key may make to /v1').default(3_000_000),
    help: 'Requests per minute one API key may make to /v1, then 429',
    note: 'The default is above what one instance serves; lower it so that one key cannot crowd out the others',
  }),
  'api-auth-failure-limit': flag({
    type: 'string',
    value: 'N',
    env: 'TILL_API_AUTH_FAILURE_LIMIT',
    schema: integerFlag(1, 1_000_000, 'failed API-key checks per minute from one client address').default(60),
    help: 'Failed API-key checks per minute from one client address, then 429 for its unknown keys',
  }),
  json: jsonFlag(
    'Print one JSON line once ready: baseUrl, checkoutUrl and, in sandbox mode, apiKey, merchantId and version. Logs go to stderr.',
  ),
}

/** `till serve` configuration: flags over environment over defaults, parsed once, here. */
export const ServeConfig = z
  .object(flagShape(SERVE_FLAGS))
  .refine(oneStorage, ONE_STORAGE_MESSAGE)
  .refine((flags) => !flags['sandbox-api-key'] || flags.sandbox, {
    message: '--sandbox-api-key only makes sense with --sandbox',
    path: ['sandbox-api-key'],
  })
  .refine((flags) => !flags['sandbox-api-version'] || flags.sandbox, {
    message: '--sandbox-api-version only makes sense with --sandbox',
    path: ['sandbox-api-version'],
  })
  .refine((flags) => flags['metrics-port'] === undefined || flags['metrics-port'] === 0 || flags['metrics-port'] !== flags.port, {
    message: '--metrics-port must differ from --port: metrics are never served on the public port',
    path: ['metrics-port'],
  })
  .refine((flags) => !flags['sandbox-hold-confirmations'] || flags.sandbox, {
    message: '--sandbox-hold-confirmations only makes sense with --sandbox',
    path: ['sandbox-hold-confirmations'],
  })

export type ServeConfig = z.output<typeof ServeConfig>
