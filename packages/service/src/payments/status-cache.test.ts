import { describe, expect, it } from 'vitest'
import { statusCache, type CachedStatus } from './status-cache.ts'

/** A cache whose subscription is listening, as it is once the app is ready. */
function listeningCache(options: { maxEntries?: number } = {}) {
  const cache = statusCache(options)
  cache.completeAgain()
  return cache
}

const entry = (status: CachedStatus['status'], id = 'pay_1'): CachedStatus => ({
  id,
  merchantId: 'mer_1',
  partnerId: 'ptn_1',
  status,
  expiresAt: 0,
})

describe('the status cache', () => {
  it('keeps the later state whatever order observations arrive in', () => {
    const cache = listeningCache()
    cache.changed(entry('processing'))
    cache.remember(entry('pending'), cache.generation())
    expect(cache.get('pay_1')?.status).toBe('processing')
    cache.changed(entry('succeeded'))
    cache.changed(entry('processing'))
    expect(cache.get('pay_1')?.status).toBe('succeeded')
  })

  it('never lets a terminal state change', () => {
    const cache = listeningCache()
    cache.changed(entry('failed'))
    cache.changed(entry('succeeded'))
    expect(cache.get('pay_1')?.status).toBe('failed')
  })

  it('keeps only terminal states until its subscription listens', () => {
    const cache = statusCache()
    cache.changed(entry('pending', 'pay_a'))
    cache.remember(entry('processing', 'pay_b'), cache.generation())
    cache.changed(entry('expired', 'pay_c'))
    expect(cache.get('pay_a')).toBeUndefined()
    expect(cache.get('pay_b')).toBeUndefined()
    expect(cache.get('pay_c')?.status).toBe('expired')
  })

  it('forgets what may go stale when changes stop arriving, and ignores reads begun before', () => {
    const cache = listeningCache()
    cache.changed(entry('pending', 'pay_a'))
    cache.changed(entry('succeeded', 'pay_b'))
    const readBegan = cache.generation()
    cache.incomplete()
    expect(cache.get('pay_a')).toBeUndefined()
    expect(cache.get('pay_b')?.status).toBe('succeeded')
    cache.completeAgain()
    // This read may have missed a change announced while the subscription was down.
    cache.remember(entry('pending', 'pay_a'), readBegan)
    expect(cache.get('pay_a')).toBeUndefined()
    cache.remember(entry('pending', 'pay_a'), cache.generation())
    expect(cache.get('pay_a')?.status).toBe('pending')
  })

  it('keeps nothing when its size is 0', () => {
    const cache = listeningCache({ maxEntries: 0 })
    cache.changed(entry('succeeded'))
    expect(cache.get('pay_1')).toBeUndefined()
  })

  it('stays within its size bound', () => {
    const cache = listeningCache({ maxEntries: 3 })
    for (const id of ['a', 'b', 'c', 'd']) cache.changed(entry('pending', id))
    expect(cache.size()).toBe(3)
    expect(cache.get('a')).toBeUndefined()
    expect(cache.get('d')).toBeDefined()
  })
})
