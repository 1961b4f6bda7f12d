import { z } from 'zod'
import {
  booleanFlag,
  httpUrlFlag,
  integerFlag,
  ONE_STORAGE_MESSAGE,
  oneStorage,
  STORAGE_ENV,
  storageFlags,
  storageOptions,
} from './flags.ts'

export const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  ...storageOptions,
  sandbox: { type: 'boolean' },
  'payment-ttl': { type: 'string' },
  'poll-ms': { type: 'string' },
  'public-url': { type: 'string' },
  'checkout-url': { type: 'string' },
  'sandbox-api-key': { type: 'string' },
  'log-level': { type: 'string' },
  'status-cache-size': { type: 'string' },
  'sandbox-confirm-ms': { type: 'string' },
  'trust-proxy': { type: 'boolean' },
  json: { type: 'boolean' },
} as const

export const SERVE_ENV = {
  port: 'TILL_PORT',
  host: 'TILL_HOST',
  ...STORAGE_ENV,
  sandbox: 'TILL_SANDBOX',
  'payment-ttl': 'TILL_PAYMENT_TTL',
  'poll-ms': 'TILL_POLL_MS',
  'public-url': 'TILL_PUBLIC_URL',
  'checkout-url': 'TILL_CHECKOUT_URL',
  'sandbox-api-key': 'TILL_SANDBOX_API_KEY',
  'log-level': 'TILL_LOG_LEVEL',
  'status-cache-size': 'TILL_STATUS_CACHE_SIZE',
  'sandbox-confirm-ms': 'TILL_SANDBOX_CONFIRM_MS',
  'trust-proxy': 'TILL_TRUST_PROXY',
}

/** `till serve` configuration: flags over environment over defaults, parsed once, here. */
export const ServeConfig = z
  .object({
    port: integerFlag(0, 65_535, '0 picks any free port').default(4000),
    host: z.string().min(1).default('127.0.0.1'),
    ...storageFlags,
    sandbox: booleanFlag.default(false),
    'payment-ttl': integerFlag(10, 7 * 24 * 3600, 'seconds a buyer has to pay, 10 s to 7 days').default(900),
    'poll-ms': integerFlag(250, 60_000, 'milliseconds between status polls suggested to merchants').default(2_000),
    'public-url': httpUrlFlag.optional(),
    'checkout-url': httpUrlFlag.optional(),
    'sandbox-api-key': z
      .string()
      .regex(/^till_sk_test_/, { message: 'must be a sandbox key (till_sk_test_…), as printed by an earlier `till serve --sandbox`' })
      .optional(),
    'log-level': z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    'status-cache-size': integerFlag(0, 10_000_000, 'payment statuses kept in memory for reads; 0 turns the cache off').default(100_000),
    'sandbox-confirm-ms': integerFlag(0, 600_000, "milliseconds the slow test wallet's payments stay processing").default(8_000),
    'trust-proxy': booleanFlag.default(false),
    json: booleanFlag.default(false),
  })
  .refine(oneStorage, ONE_STORAGE_MESSAGE)
  .refine((flags) => !flags['sandbox-api-key'] || flags.sandbox, {
    message: '--sandbox-api-key only makes sense with --sandbox',
    path: ['sandbox-api-key'],
  })

export type ServeConfig = z.output<typeof ServeConfig>
