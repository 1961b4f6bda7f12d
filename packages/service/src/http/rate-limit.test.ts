import { describe, expect, it } from 'vitest'
import { rateLimiter } from './rate-limit.ts'

/** A clock the test moves by hand. */
function handClock(start = Date.parse('2025-03-01T12:00:00.000Z')) {
  let t = start
  return {
    clock: { now: () => new Date(t) },
    advance: (ms: number) => {
      t += ms
    },
  }
}

describe('the rate limiter', () => {
  it('allows `limit` hits per window, then refuses with a positive retry-after', () => {
    const { clock } = handClock()
    const limiter = rateLimiter({ limit: 3, windowMs: 60_000, clock })
    expect(limiter.hit('ip_1')).toEqual({ allowed: true })
    expect(limiter.hit('ip_1')).toEqual({ allowed: true })
    expect(limiter.hit('ip_1')).toEqual({ allowed: true })
    expect(limiter.hit('ip_1')).toEqual({ allowed: false, retryAfterSeconds: 60 })
    expect(limiter.hit('ip_1')).toEqual({ allowed: false, retryAfterSeconds: 60 })
  })

  it('shrinks the retry-after as the window passes, never below one second', () => {
    const { clock, advance } = handClock()
    const limiter = rateLimiter({ limit: 1, windowMs: 60_000, clock })
    limiter.hit('ip_1')
    advance(20_500)
    expect(limiter.hit('ip_1')).toEqual({ allowed: false, retryAfterSeconds: 40 })
    advance(30_000)
    expect(limiter.hit('ip_1')).toEqual({ allowed: false, retryAfterSeconds: 10 })
    advance(9_000)
    expect(limiter.hit('ip_1')).toEqual({ allowed: false, retryAfterSeconds: 1 })
    advance(499)
    expect(limiter.hit('ip_1')).toEqual({ allowed: false, retryAfterSeconds: 1 })
  })

  it('gives each key its own budget', () => {
    const { clock } = handClock()
    const limiter = rateLimiter({ limit: 2, windowMs: 60_000, clock })
    limiter.hit('ip_1')
    limiter.hit('ip_1')
    expect(limiter.hit('ip_1').allowed).toBe(false)
    expect(limiter.hit('ip_2')).toEqual({ allowed: true })
    expect(limiter.hit('ip_2')).toEqual({ allowed: true })
    expect(limiter.hit('ip_2').allowed).toBe(false)
  })

  it('allows again, with a full budget, once the window has passed', () => {
    const { clock, advance } = handClock()
    const limiter = rateLimiter({ limit: 2, windowMs: 60_000, clock })
    limiter.hit('ip_1')
    limiter.hit('ip_1')
    expect(limiter.hit('ip_1').allowed).toBe(false)

    advance(59_999)
    expect(limiter.hit('ip_1').allowed).toBe(false)
    advance(1)
    expect(limiter.hit('ip_1')).toEqual({ allowed: true })
    expect(limiter.hit('ip_1')).toEqual({ allowed: true })
    expect(limiter.hit('ip_1')).toEqual({ allowed: false, retryAfterSeconds: 60 })
  })

  it('peeks at a budget without spending it', () => {
    const { clock, advance } = handClock()
    const limiter = rateLimiter({ limit: 2, windowMs: 60_000, clock })
    expect(limiter.peek('ip_1')).toEqual({ allowed: true })
    limiter.hit('ip_1')
    expect(limiter.peek('ip_1')).toEqual({ allowed: true })
    expect(limiter.peek('ip_1')).toEqual({ allowed: true })
    limiter.hit('ip_1')
    advance(15_000)
    expect(limiter.peek('ip_1')).toEqual({ allowed: false, retryAfterSeconds: 45 })
    expect(limiter.peek('ip_2')).toEqual({ allowed: true })
    advance(45_000)
    expect(limiter.peek('ip_1')).toEqual({ allowed: true })
    expect(limiter.size()).toBe(1)
  })

  it('stays bounded under a flood of distinct keys', () => {
    const { clock, advance } = handClock()
    const limiter = rateLimiter({ limit: 5, windowMs: 60_000, clock, maxKeys: 10 })
    for (let i = 0; i < 1_000; i++) {
      expect(limiter.hit(`ip_${i}`).allowed).toBe(true)
      expect(limiter.size()).toBeLessThanOrEqual(10)
      if (i % 100 === 0) advance(7_000)
    }
    expect(limiter.size()).toBeGreaterThan(0)
  })

  it('makes room by dropping expired windows before live ones', () => {
    const { clock, advance } = handClock()
    const limiter = rateLimiter({ limit: 1, windowMs: 60_000, clock, maxKeys: 3 })
    limiter.hit('live')
    limiter.hit('old_1')
    limiter.hit('old_2')
    advance(60_000)
    // A new window for the oldest key; old_1 and old_2 have now expired.
    expect(limiter.hit('live')).toEqual({ allowed: true })
    advance(1_000)

    expect(limiter.hit('new')).toEqual({ allowed: true })
    expect(limiter.size()).toBeLessThanOrEqual(3)
    // live's window survived the pruning, so its spent budget still counts.
    expect(limiter.hit('live')).toEqual({ allowed: false, retryAfterSeconds: 59 })
  })
})
