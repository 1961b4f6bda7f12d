import { describe, expect, it } from 'vitest'
import { concurrencyLimit, eachLimited } from './concurrency.ts'

/** A task the test finishes by hand. */
function gate() {
  let open: () => void = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { open, task: async () => opened }
}

describe('concurrencyLimit', () => {
  it('runs at most `running` tasks, queues `waiting` more, and refuses the rest at once', async () => {
    const limit = concurrencyLimit({ running: 1, waiting: 1, busy: () => new Error('busy') })
    const started: string[] = []
    const first = gate()
    const second = gate()
    const a = limit(async () => {
      started.push('a')
      await first.task()
    })
    const b = limit(async () => {
      started.push('b')
      await second.task()
    })
    await expect(limit(async () => started.push('c'))).rejects.toThrow('busy')
    await Promise.resolve()
    expect(started).toEqual(['a'])
    first.open()
    await a
    await expect.poll(() => started).toEqual(['a', 'b'])
    second.open()
    await b
    // Slots are free again.
    await limit(async () => started.push('d'))
    expect(started).toEqual(['a', 'b', 'd'])
  })

  it('frees the slot when a task fails', async () => {
    const limit = concurrencyLimit({ running: 1, waiting: 0, busy: () => new Error('busy') })
    await expect(limit(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await expect(limit(async () => 'ok')).resolves.toBe('ok')
  })
})

describe('eachLimited', () => {
  it('runs at most `limit` at once, and all of them', async () => {
    let running = 0
    let most = 0
    const done: number[] = []
    await eachLimited([1, 2, 3, 4, 5], 2, async (item) => {
      running++
      most = Math.max(most, running)
      await Promise.resolve()
      running--
      done.push(item)
    })
    expect(most).toBe(2)
    expect(done.toSorted()).toEqual([1, 2, 3, 4, 5])
  })

  it('starts nothing after a failure, and rejects only once the running ones have ended', async () => {
    const slow = gate()
    const started: number[] = []
    let slowEnded = false
    const all = eachLimited([1, 2, 3, 4], 2, async (item) => {
      started.push(item)
      if (item === 1) throw new Error('boom')
      await slow.task()
      slowEnded = true
    })
    let settled = false
    const outcome = all.catch((error: Error) => {
      settled = true
      return error.message
    })
    await Promise.resolve()
    await Promise.resolve()
    expect(settled).toBe(false)
    slow.open()
    expect(await outcome).toBe('boom')
    expect(slowEnded).toBe(true)
    expect(started).toEqual([1, 2])
  })
})
