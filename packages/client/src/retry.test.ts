import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { backoffMs, type FailedAttempt, isRetryable, parseRetryAfter, retryDelayMs, sleep } from './retry.ts'

const tuning = { baseDelayMs: 100, maxDelayMs: 1_000, maxRetryAfterMs: 5_000 }
const status = (code: number, retryAfterMs?: number): FailedAttempt => ({ kind: 'status', status: code, retryAfterMs })

describe('isRetryable', () => {
  it.each([429, 500, 502, 503, 504])('repeats an idempotent request after %i', (code) => {
    expect(isRetryable(status(code), true)).toBe(true)
  })

  it.each([400, 401, 403, 404, 405, 409, 413, 415, 422, 501, 505])('never repeats after %i', (code) => {
    expect(isRetryable(status(code), true)).toBe(false)
    expect(isRetryable(status(code), false)).toBe(false)
  })

  it.each([429, 500, 502, 503, 504])('does not repeat a non-idempotent request the server answered with %i', (code) => {
    expect(isRetryable(status(code), false)).toBe(false)
  })

  it('repeats a request that broke or timed out once sent only when it is idempotent', () => {
    for (const kind of ['timeout', 'connection'] as const) {
      expect(isRetryable({ kind, sent: true }, true)).toBe(true)
      expect(isRetryable({ kind, sent: true }, false)).toBe(false)
    }
  })

  it('repeats any request that never reached the server', () => {
    expect(isRetryable({ kind: 'connection', sent: false }, false)).toBe(true)
    expect(isRetryable({ kind: 'timeout', sent: false }, false)).toBe(true)
  })

  it('never repeats a fatal failure', () => {
    expect(isRetryable({ kind: 'fatal' }, true)).toBe(false)
  })
})

describe('backoffMs', () => {
  it('draws from [0, base * 2^retry), capped at maxDelayMs (full jitter)', () => {
    expect(backoffMs(0, tuning, () => 0)).toBe(0)
    expect(backoffMs(0, tuning, () => 0.999)).toBe(99)
    expect(backoffMs(1, tuning, () => 0.999)).toBe(199)
    expect(backoffMs(2, tuning, () => 0.5)).toBe(200)
    expect(backoffMs(10, tuning, () => 0.999)).toBe(999)
  })
})

describe('retryDelayMs', () => {
  it('waits at least what Retry-After asks', () => {
    expect(retryDelayMs(status(429, 2_000), 0, tuning, () => 0.5)).toBe(2_000)
  })

  it('keeps the backoff when it is longer than Retry-After', () => {
    expect(retryDelayMs(status(503, 10), 3, tuning, () => 0.5)).toBe(400)
  })

  it('gives up when Retry-After is longer than the client will wait', () => {
    expect(retryDelayMs(status(429, 5_001), 0, tuning, () => 0.5)).toBeUndefined()
    expect(retryDelayMs(status(429, 5_000), 0, tuning, () => 0.5)).toBe(5_000)
  })

  it('is the backoff alone without Retry-After', () => {
    expect(retryDelayMs({ kind: 'timeout', sent: true }, 1, tuning, () => 0.25)).toBe(50)
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-02-18T12:00:00Z')

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0)
    expect(parseRetryAfter('7', now)).toBe(7_000)
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000)
    expect(parseRetryAfter('1.5', now)).toBe(1_500)
  })

  it('reads an HTTP date relative to now, a past one as 0', () => {
    expect(parseRetryAfter('Wed, 18 Feb 2026 12:00:03 GMT', now)).toBe(3_000)
    expect(parseRetryAfter('Wed, 18 Feb 2026 11:00:00 GMT', now)).toBe(0)
  })

  it.each([undefined, '', 'soon', '-1', '1e3', '2026-02-18T12:00:03Z', 'Wed, 31 Foo 2026 12:00:03 GMT'])('ignores %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined()
  })
})

describe('sleep', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('waits the given time, and not less', async () => {
    let done = false
    const waiting = sleep(20, undefined).then(() => {
      done = true
    })
    await vi.advanceTimersByTimeAsync(19)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await waiting
    expect(done).toBe(true)
  })

  it('rejects with the reason as soon as the signal aborts, and drops its timer', async () => {
    const controller = new AbortController()
    const reason = new Error('stop')
    const waiting = sleep(10_000, controller.signal)
    controller.abort(reason)
    await expect(waiting).rejects.toBe(reason)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('rejects at once on a signal already aborted', async () => {
    const reason = new Error('already')
    await expect(sleep(10_000, AbortSignal.abort(reason))).rejects.toBe(reason)
    expect(vi.getTimerCount()).toBe(0)
  })
})
