// The client's options, checked once at construction so that mistakes surface there, not at the first call.
import { API_VERSIONS, type ApiVersion, parseApiVersion } from '@till/contract'
import type { Dispatcher } from 'undici'
import { DEFAULT_RETRY_TUNING, type RetryTuning } from './retry.ts'

export type TillClientOptions = {
  /** Where the Till service is, e.g. `http://127.0.0.1:4000` or `https://pay.example.com/till/`. */
  baseUrl: string | URL
  /** The partner API key (`Api-Key` header). Server-side only; never logged, never in an error. */
  apiKey: string
  /** The merchant of the merchant endpoints (`Merchant-Id` header); a request may name another. */
  merchantId?: string | undefined
  /** Sent as `Pay-Version` on every request; without it the partner's pinned version applies (spec 9). */
  payVersion?: ApiVersion | undefined
  /** Time limit of one attempt, from sending to the last byte of the body. Default 10 000. */
  timeoutMs?: number | undefined
  /** Retries after the first attempt, where retrying is safe. Default 2. */
  maxRetries?: number | undefined
  /** The undici dispatcher to send with. Default: an `Agent` (keep-alive) owned and closed by the client. */
  dispatcher?: Dispatcher | undefined
  /** Backoff and `Retry-After` limits; the defaults suit most callers. */
  retryTuning?: Partial<RetryTuning> | undefined
}

/** Per-request options of every endpoint method. */
export type RequestOptions = {
  /** Aborting rejects the call at once with the signal's reason; nothing is retried after it. */
  signal?: AbortSignal | undefined
  timeoutMs?: number | undefined
  maxRetries?: number | undefined
  payVersion?: ApiVersion | undefined
  /** Overrides the client's `merchantId` for this request (merchant endpoints only). */
  merchantId?: string | undefined
}

/** Seams for tests: the random source of the jitter and the wait between attempts. */
export type ClientHooks = {
  random?: () => number
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>
}

export type ClientConfig = {
  origin: string
  /** The base URL's path without a trailing slash: '' or e.g. '/till'. */
  basePath: string
  merchantId: string | undefined
  payVersion: ApiVersion | undefined
  timeoutMs: number
  maxRetries: number
  retryTuning: RetryTuning
}

export const DEFAULT_TIMEOUT_MS = 10_000
export const DEFAULT_MAX_RETRIES = 2

// Visible ASCII only: anything else would be refused as a header value or smuggle a second header.
const HEADER_TOKEN = /^[\x21-\x7e]+$/

function parseBaseUrl(raw: string | URL): { origin: string; basePath: string } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new TypeError(`TillClient: baseUrl must be an absolute http(s) URL such as http://127.0.0.1:4000, got ${String(raw)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`TillClient: baseUrl must use http or https, not ${url.protocol}`)
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new TypeError('TillClient: baseUrl must not carry credentials, a query or a fragment')
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') }
}

/** Throws a TypeError naming the problem; its `code` is the contract's (`invalid_api_version`, `unknown_api_version`). */
export function checkPayVersion(value: unknown, where: string): ApiVersion {
  const parsed = typeof value === 'string' ? parseApiVersion(value) : undefined
  if (parsed?.ok) return parsed.version
  const code = parsed?.code ?? 'invalid_api_version'
  const problem = code === 'unknown_api_version' ? 'is not a version this client knows' : 'is not a version (YYYY-MM-DD[.label])'
  const error = new TypeError(`${where}: payVersion ${JSON.stringify(value)} ${problem}; known versions: ${API_VERSIONS.join(', ')}`)
  throw Object.assign(error, { code })
}

export function checkMerchantId(value: unknown, where: string): string {
  if (typeof value !== 'string' || !HEADER_TOKEN.test(value)) {
    throw new TypeError(`${where}: merchantId must be a non-empty string of visible ASCII characters`)
  }
  return value
}

function checkCount(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw new TypeError(`TillClient: ${name} must be an integer of at least ${min}, got ${String(value)}`)
  }
  return value
}

export const checkTimeout = (value: unknown): number => checkCount(value, 'timeoutMs', 1)
export const checkMaxRetries = (value: unknown): number => checkCount(value, 'maxRetries', 0)

/** The API key alone, checked without ever echoing it. */
export function checkApiKey(value: unknown): string {
  if (typeof value !== 'string' || !HEADER_TOKEN.test(value)) {
    throw new TypeError('TillClient: apiKey is required: a non-empty string of visible ASCII characters, no spaces')
  }
  return value
}

export function resolveConfig(options: TillClientOptions): ClientConfig {
  if (typeof options !== 'object' || options === null) throw new TypeError('TillClient: options are required')
  const tuning = { ...DEFAULT_RETRY_TUNING, ...options.retryTuning }
  for (const [name, value] of Object.entries(tuning)) checkCount(value, `retryTuning.${name}`, 0)
  return {
    ...parseBaseUrl(options.baseUrl),
    merchantId: options.merchantId === undefined ? undefined : checkMerchantId(options.merchantId, 'TillClient'),
    payVersion: options.payVersion === undefined ? undefined : checkPayVersion(options.payVersion, 'TillClient'),
    timeoutMs: options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : checkTimeout(options.timeoutMs),
    maxRetries: options.maxRetries === undefined ? DEFAULT_MAX_RETRIES : checkMaxRetries(options.maxRetries),
    retryTuning: tuning,
  }
}
