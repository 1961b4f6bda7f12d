// When a failed attempt is repeated, and after how long. Pure functions, apart from `sleep`.

export type RetryTuning = {
  /** Backoff before the first retry is drawn from [0, baseDelayMs); it doubles with each retry. */
  baseDelayMs: number
  /** The backoff never exceeds this. */
  maxDelayMs: number
  /**
   * The longest `Retry-After` the client waits for. A server asking for longer is not retried: the error
   * (a `TillRateLimitError` carries `retryAfterMs`) goes to the caller, who can schedule the retry.
   */
  maxRetryAfterMs: number
}

export const DEFAULT_RETRY_TUNING: RetryTuning = { baseDelayMs: 250, maxDelayMs: 4_000, maxRetryAfterMs: 10_000 }

/** How an attempt failed, as far as retrying is concerned. */
export type FailedAttempt =
  | { kind: 'status'; status: number; retryAfterMs: number | undefined }
  /** `sent` is false only when the request certainly never reached the server (refused, DNS, connect timeout). */
  | { kind: 'timeout'; sent: boolean }
  | { kind: 'connection'; sent: boolean }
  /** The client was closed, or undici refused the request's arguments: repeating cannot help. */
  | { kind: 'fatal' }

/** Statuses that say "try again": overloaded, rate limited, or a proxy or server that failed on the way. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

/**
 * Whether an attempt may be repeated. An `idempotent` request (every GET, and creates made idempotent by
 * a key such as the referenceId) is repeated after a timeout, a broken connection, 429, 500, 502, 503 and
 * 504. Any other request is repeated only when it certainly never reached the server, since the server
 * may have acted on it. Other 4xx never: the same request would fail the same way.
 */
export function isRetryable(failure: FailedAttempt, idempotent: boolean): boolean {
  switch (failure.kind) {
    case 'status':
      return idempotent && RETRYABLE_STATUSES.has(failure.status)
    case 'timeout':
    case 'connection':
      return idempotent || !failure.sent
    case 'fatal':
      return false
  }
}

/**
 * Exponential backoff with full jitter: a uniform draw from [0, min(max, base * 2^retry)), so that many
 * clients failing together do not retry together. `retry` counts from 0.
 */
export function backoffMs(retry: number, tuning: RetryTuning, random: () => number = Math.random): number {
  const ceiling = Math.min(tuning.maxDelayMs, tuning.baseDelayMs * 2 ** retry)
  return Math.floor(random() * ceiling)
}

/**
 * The wait before the next attempt, or undefined when the server asks for more than the client will wait.
 * A `Retry-After` is honoured as a minimum: the wait is the longer of it and the backoff.
 */
export function retryDelayMs(
  failure: FailedAttempt,
  retry: number,
  tuning: RetryTuning,
  random: () => number = Math.random,
): number | undefined {
  const backoff = backoffMs(retry, tuning, random)
  const retryAfterMs = failure.kind === 'status' ? failure.retryAfterMs : undefined
  if (retryAfterMs === undefined) return backoff
  if (retryAfterMs > tuning.maxRetryAfterMs) return undefined
  return Math.max(backoff, retryAfterMs)
}

const DELAY_SECONDS = /^\s*(\d+(?:\.\d+)?)\s*$/

/**
 * A `Retry-After` header in milliseconds: delay-seconds (`120`) or an HTTP date, relative to `now`.
 * Undefined when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const seconds = DELAY_SECONDS.exec(value)
  if (seconds) return Math.round(Number(seconds[1]) * 1000)
  // Only a date with a weekday and a zone, as HTTP dates have, not whatever Date.parse happens to accept.
  if (!/^[A-Za-z]{3}, .+ GMT$/.test(value.trim())) return undefined
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
