// The default webhook-id store: remembered ids answer seen, until they expire by the store's clock or the
// store is full and forgets its oldest.
import { describe, expect, test } from 'vitest'
import { DEFAULT_WEBHOOK_ID_TTL_MS, memoryWebhookIdStore, TILL_RETRY_SPAN_MS } from './webhook-ids.ts'

describe('memoryWebhookIdStore', () => {
  test('an id is seen once remembered, and only then', async () => {
    const ids = memoryWebhookIdStore()
    expect(await ids.seen('evt_1')).toBe(false)
    await ids.remember('evt_1')
    await ids.remember('evt_1')
    expect(await ids.seen('evt_1')).toBe(true)
    expect(await ids.seen('evt_2')).toBe(false)
  })

  test('an id is forgotten when its time is up, by the clock it was given', async () => {
    let now = 1_000_000
    const ids = memoryWebhookIdStore({ ttlMs: 60_000, now: () => now })
    await ids.remember('evt_old')
    now += 30_000
    await ids.remember('evt_new')
    now += 29_999
    expect(await ids.seen('evt_old')).toBe(true)
    now += 1
    expect(await ids.seen('evt_old')).toBe(false)
    expect(await ids.seen('evt_new')).toBe(true)
    now += 30_000
    expect(await ids.seen('evt_new')).toBe(false)
  })

  test('a full store forgets its oldest id first', async () => {
    const ids = memoryWebhookIdStore({ maxIds: 2 })
    for (const id of ['evt_a', 'evt_b', 'evt_c']) await ids.remember(id)
    expect([await ids.seen('evt_a'), await ids.seen('evt_b'), await ids.seen('evt_c')]).toEqual([false, true, true])
  })

  test('by default ids outlive Till’s whole retry schedule', () => {
    expect(TILL_RETRY_SPAN_MS).toBeGreaterThan(24 * 3600 * 1000)
    expect(DEFAULT_WEBHOOK_ID_TTL_MS).toBeGreaterThan(TILL_RETRY_SPAN_MS)
  })

  test.each([{ ttlMs: 0 }, { ttlMs: Number.NaN }, { maxIds: 0 }, { maxIds: 1.5 }])('refuses %o', (options) => {
    expect(() => memoryWebhookIdStore(options)).toThrow(TypeError)
  })
})
