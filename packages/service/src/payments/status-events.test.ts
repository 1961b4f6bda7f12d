import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { statusEvents } from './status-events.ts'

/** Follows a promise so a test can ask whether it has resolved yet. */
function track(promise: Promise<void>) {
  const state = { resolved: false }
  void promise.then(() => {
    state.resolved = true
  })
  return state
}

/** Lets resolved promises run their callbacks. */
const settle = () => vi.advanceTimersByTimeAsync(0)

describe('status events', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('wakes a waiter when its payment is published', async () => {
    const events = statusEvents()
    const wait = track(events.next('pay_1', 25_000, new AbortController().signal))
    expect(events.waiting()).toBe(1)
    await settle()
    expect(wait.resolved).toBe(false)

    events.publish('pay_1')
    await settle()
    expect(wait.resolved).toBe(true)
    expect(events.waiting()).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('does not wake a waiter when another payment is published', async () => {
    const events = statusEvents()
    const wait = track(events.next('pay_1', 25_000, new AbortController().signal))
    events.publish('pay_2')
    await settle()
    expect(wait.resolved).toBe(false)
    expect(events.waiting()).toBe(1)

    events.publish('pay_1')
    await settle()
    expect(wait.resolved).toBe(true)
    expect(events.waiting()).toBe(0)
  })

  it('wakes every waiter of the published payment, and only once', async () => {
    const events = statusEvents()
    const signal = new AbortController().signal
    const first = track(events.next('pay_1', 25_000, signal))
    const second = track(events.next('pay_1', 25_000, signal))
    const other = track(events.next('pay_2', 25_000, signal))
    expect(events.waiting()).toBe(3)

    events.publish('pay_1')
    await settle()
    expect(first.resolved).toBe(true)
    expect(second.resolved).toBe(true)
    expect(other.resolved).toBe(false)
    expect(events.waiting()).toBe(1)

    // A waiter that starts after the publish waits for the next one.
    const later = track(events.next('pay_1', 25_000, signal))
    await settle()
    expect(later.resolved).toBe(false)
    expect(events.waiting()).toBe(2)
  })

  it('resolves when the timeout passes, and not before', async () => {
    const events = statusEvents()
    const wait = track(events.next('pay_1', 25_000, new AbortController().signal))
    await vi.advanceTimersByTimeAsync(24_999)
    expect(wait.resolved).toBe(false)
    expect(events.waiting()).toBe(1)

    await vi.advanceTimersByTimeAsync(1)
    expect(wait.resolved).toBe(true)
    expect(events.waiting()).toBe(0)
  })

  it('treats a negative timeout as none', async () => {
    const events = statusEvents()
    const wait = track(events.next('pay_1', -5, new AbortController().signal))
    await settle()
    expect(wait.resolved).toBe(true)
    expect(events.waiting()).toBe(0)
  })

  it('resolves when the request is aborted', async () => {
    const events = statusEvents()
    const controller = new AbortController()
    const wait = track(events.next('pay_1', 25_000, controller.signal))
    await settle()
    expect(wait.resolved).toBe(false)

    controller.abort()
    await settle()
    expect(wait.resolved).toBe(true)
    expect(events.waiting()).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('resolves at once, without waiting, for a request already aborted', async () => {
    const events = statusEvents()
    const controller = new AbortController()
    controller.abort()
    const wait = track(events.next('pay_1', 25_000, controller.signal))
    expect(events.waiting()).toBe(0)
    await settle()
    expect(wait.resolved).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('releaseAll wakes every waiter of every payment', async () => {
    const events = statusEvents()
    const signal = new AbortController().signal
    const waits = [
      track(events.next('pay_1', 25_000, signal)),
      track(events.next('pay_1', 25_000, signal)),
      track(events.next('pay_2', 25_000, signal)),
      track(events.next('pay_3', 1_000, signal)),
    ]
    expect(events.waiting()).toBe(4)

    events.releaseAll()
    await settle()
    expect(waits.map((wait) => wait.resolved)).toEqual([true, true, true, true])
    expect(events.waiting()).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('leaves no waiter behind after a mix of endings', async () => {
    const events = statusEvents()
    const aborted = new AbortController()
    void events.next('pay_1', 25_000, new AbortController().signal)
    void events.next('pay_2', 1_000, new AbortController().signal)
    void events.next('pay_3', 25_000, aborted.signal)
    void events.next('pay_4', 25_000, new AbortController().signal)
    expect(events.waiting()).toBe(4)

    events.publish('pay_1')
    expect(events.waiting()).toBe(3)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(events.waiting()).toBe(2)
    aborted.abort()
    expect(events.waiting()).toBe(1)
    events.releaseAll()
    expect(events.waiting()).toBe(0)
    expect(vi.getTimerCount()).toBe(0)
  })
  it('while changes cannot be heard, wakes everyone at once and then every second instead of at their timeout', async () => {
    const events = statusEvents()
    const before = track(events.next('pay_1', 25_000, new AbortController().signal))
    events.hearing(false)
    await settle()
    expect(before.resolved).toBe(true)

    const blind = track(events.next('pay_1', 25_000, new AbortController().signal))
    await vi.advanceTimersByTimeAsync(999)
    expect(blind.resolved).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(blind.resolved).toBe(true)

    events.hearing(true)
    const heard = track(events.next('pay_1', 25_000, new AbortController().signal))
    await vi.advanceTimersByTimeAsync(24_999)
    expect(heard.resolved).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(heard.resolved).toBe(true)
  })
})
