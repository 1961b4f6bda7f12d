import { describe, expect, it } from 'vitest'
import { concurrencyLimit } from './concurrency.ts'

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
