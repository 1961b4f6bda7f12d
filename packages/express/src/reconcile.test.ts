// The reconciler's schedule, on fake timers: a run at start, the next one intervalMs after each run ends,
// none after stop; a failing run is reported and does not end the schedule.
import { afterEach, describe, expect, test, vi } from 'vitest'
import { memoryOrderStore, type PayableOrder } from './orders.ts'
import { reconciler } from './reconcile.ts'

const till = { baseUrl: 'http://127.0.0.1:9', apiKey: 'till_sk_test_x', merchantId: 'mer_x' }

/** An order store with nothing awaiting payment, counting how often it is asked. */
function countingStore(fail = false) {
  const store = { ...memoryOrderStore(new Map<string, PayableOrder>()), lists: 0 }
  store.listAwaitingPayment = async () => {
    store.lists += 1
    if (fail) throw new Error('database down')
    return []
  }
  return store
}

afterEach(() => {
  vi.useRealTimers()
})

describe('reconciler schedule', () => {
  test('runs at start, then every intervalMs, and not after stop', async () => {
    vi.useFakeTimers()
    const orders = countingStore()
    const reconcile = reconciler({ till, orders, intervalMs: 1_000 })
    reconcile.start()
    reconcile.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(orders.lists).toBe(1)
    await vi.advanceTimersByTimeAsync(999)
    expect(orders.lists).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(orders.lists).toBe(2)
    await reconcile.stop()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(orders.lists).toBe(2)
  })

  test('a run that throws is reported and the schedule goes on; runOnce rejects with it', async () => {
    vi.useFakeTimers()
    const orders = countingStore(true)
    const errors: unknown[] = []
    const reconcile = reconciler({ till, orders, intervalMs: 1_000, onError: (error) => errors.push(error) })
    reconcile.start()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(orders.lists).toBe(2)
    expect(errors).toEqual([new Error('database down'), new Error('database down')])
    await reconcile.stop()
    await expect(reconcile.runOnce()).rejects.toThrow('database down')
  })
})
