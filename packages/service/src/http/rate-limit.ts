import type { FastifyReply } from 'fastify'
import type { Clock } from '../core/clock.ts'
import { ApiError } from '../errors.ts'

export type RateLimit = { limit: number; windowMs: number }
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/**
 * Fixed-window request counting per key (an IP, a payment), in this process's memory. With several
 * instances each counts its own share, so a client may get up to N times the limit across N instances:
 * enough to stop one page or one host from hammering the service, which is what it is for.
 */
export function rateLimiter(options: RateLimit & { clock: Clock; maxKeys?: number }) {
  const maxKeys = options.maxKeys ?? 100_000
  const windows = new Map<string, { startedAt: number; count: number }>()

  function prune(now: number) {
    for (const [key, window] of windows) if (now - window.startedAt >= options.windowMs) windows.delete(key)
    // Still full of live windows: a flood of distinct keys. Forgetting the oldest lets one of them
    // through early, which beats growing without bound.
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break
      windows.delete(key)
    }
  }

  const refusal = (window: { startedAt: number }, now: number): RateDecision => ({
    allowed: false,
    retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + options.windowMs - now) / 1000)),
  })

  return {
    hit(key: string): RateDecision {
      const now = options.clock.now().getTime()
      let window = windows.get(key)
      if (!window || now - window.startedAt >= options.windowMs) {
        if (!window && windows.size >= maxKeys) prune(now)
        window = { startedAt: now, count: 0 }
        windows.set(key, window)
      }
      window.count++
      return window.count <= options.limit ? { allowed: true } : refusal(window, now)
    },
    /** Whether `key` has used up its window, without counting a hit: for budgets only some requests spend. */
    peek(key: string): RateDecision {
      const now = options.clock.now().getTime()
      const window = windows.get(key)
      if (!window || now - window.startedAt >= options.windowMs || window.count < options.limit) return { allowed: true }
      return refusal(window, now)
    },
    size: () => windows.size,
  }
}

export type RateLimiter = ReturnType<typeof rateLimiter>

/** Counts one request against `key`; over the limit it answers 429 with Retry-After and the spec's body. */
export function enforceRateLimit(limiter: RateLimiter, key: string, reply: FastifyReply, subject: string): void {
  refuseIfLimited(limiter.hit(key), reply, subject)
}

/** Answers a refused decision with 429, Retry-After and the spec's body; `subject` finishes "Too many requests". */
export function refuseIfLimited(decision: RateDecision, reply: FastifyReply, subject: string): void {
  if (decision.allowed) return
  reply.header('Retry-After', String(decision.retryAfterSeconds))
  throw new ApiError('rate_limited', `Too many requests ${subject}; retry in ${decision.retryAfterSeconds} s.`)
}
