import { describe, expect, it, type Mock, vi } from 'vitest'
import type { RunningCluster } from './cluster.ts'
import { DEFAULT_RESTART_POLICY, keepRunning, type RestartPolicy } from './restarts.ts'

const PORT = 54_321
const KILLED = 'it exited unexpectedly. Its log:\nLOG:  received immediate shutdown request'
const OUT_OF_DISK = 'it exited unexpectedly. Its log:\nPANIC:  could not write to file "pg_wal/xlogtemp.42": No space left on device'

function deferred<T>() {
  let resolve: (value: T) => void = () => {}
  let reject: (error: unknown) => void = () => {}
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

type FakeCluster = RunningCluster & { stop: Mock<() => Promise<void>>; die(reason: string): void }

/** A server that runs until the test makes it die. */
function fakeCluster(): FakeCluster {
  const death = deferred<string>()
  return {
    port: PORT,
    url: (database) => `postgres://till@127.0.0.1:${PORT}/${database}`,
    exited: death.promise,
    stop: vi.fn(async () => {}),
    die: death.resolve,
  }
}

// A macrotask turn runs only once every pending promise callback has run: the restart loop has done all it can.
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

/** keepRunning over fake servers, a hand-moved clock, and a log the test reads. */
function supervised(options: { policy?: RestartPolicy; restart?: (signal: AbortSignal) => Promise<RunningCluster> } = {}) {
  const first = fakeCluster()
  const started: FakeCluster[] = [first]
  const restart = vi.fn<(signal: AbortSignal) => Promise<RunningCluster>>(
    options.restart ??
      (async () => {
        const next = fakeCluster()
        started.push(next)
        return next
      }),
  )
  let time = 0
  const logs: string[] = []
  const kept = keepRunning({
    first,
    restart,
    policy: options.policy ?? DEFAULT_RESTART_POLICY,
    log: (message) => logs.push(message),
    now: () => time,
  })
  let gaveUp: string | undefined
  void kept.gaveUp.then((reason) => {
    gaveUp = reason
  })
  return {
    kept,
    first,
    restart,
    logs,
    /** The server running now: the last one started. */
    current: () => started.at(-1)!,
    /** Kills the running server and lets the restart loop react. */
    async kill(reason = KILLED) {
      started.at(-1)!.die(reason)
      await settle()
    },
    advance(ms: number) {
      time += ms
    },
    gaveUp: () => gaveUp,
  }
}

const RUNNING_AGAIN = /^the embedded PostgreSQL server is running again, \d+ ms after it stopped$/

describe('restarting the embedded server when it dies', () => {
  it('restarts a server that died, says why and that it runs again, and does not give up', async () => {
    const till = supervised()
    await till.kill(OUT_OF_DISK)

    expect(till.restart).toHaveBeenCalledOnce()
    expect(till.logs).toEqual([
      `the embedded PostgreSQL server stopped: ${OUT_OF_DISK}\n` +
        'restarting it on the same data (restart 1 of at most 5 within 10 minutes)',
      expect.stringMatching(RUNNING_AGAIN),
    ])
    expect(till.kept.restarts()).toBe(1)
    expect(till.gaveUp()).toBeUndefined()
  })

  it('restarts the restarted server too, until the budget is spent, then gives up with the reason', async () => {
    const till = supervised({ policy: { max: 2, withinMs: 60_000 } })
    await till.kill()
    till.advance(10_000)
    await till.kill()
    expect(till.restart).toHaveBeenCalledTimes(2)
    expect(till.logs[2]).toContain('(restart 2 of at most 2 within 1 minute)')
    expect(till.gaveUp()).toBeUndefined()

    // A crash loop: restarting again would only hide it.
    till.advance(10_000)
    await till.kill(OUT_OF_DISK)
    expect(till.restart).toHaveBeenCalledTimes(2)
    expect(till.gaveUp()).toBe(`${OUT_OF_DISK}\nIt was restarted 2 times within 1 minute; Till does not try again.`)
  })

  it('keeps restarting a server whose deaths are further apart than the window', async () => {
    const till = supervised({ policy: { max: 2, withinMs: 60_000 } })
    for (let death = 1; death <= 5; death++) {
      await till.kill()
      expect(till.kept.restarts()).toBe(1)
      till.advance(60_001)
    }
    expect(till.restart).toHaveBeenCalledTimes(5)
    expect(till.logs.filter((line) => line.includes('(restart 1 of at most 2 within 1 minute)'))).toHaveLength(5)
    expect(till.gaveUp()).toBeUndefined()
  })

  it('counts restarts in a window that slides: old restarts stop counting as they age out', async () => {
    const till = supervised({ policy: { max: 2, withinMs: 60_000 } })
    await till.kill() // t = 0
    till.advance(40_000)
    await till.kill() // t = 40 s
    till.advance(40_000)
    await till.kill() // t = 80 s: the first restart has aged out, the second still counts
    expect(till.restart).toHaveBeenCalledTimes(3)
    expect(till.kept.restarts()).toBe(2)
    expect(till.gaveUp()).toBeUndefined()

    till.advance(10_000)
    await till.kill() // t = 90 s: two restarts within the last minute
    expect(till.restart).toHaveBeenCalledTimes(3)
    expect(till.gaveUp()).toContain('It was restarted 2 times within 1 minute')
  })

  it('gives up with the server’s reason and the restart’s error when a restart fails', async () => {
    const till = supervised({
      restart: async () => {
        throw new Error('The embedded PostgreSQL server did not start: the server exited')
      },
    })
    await till.kill(OUT_OF_DISK)
    expect(till.gaveUp()).toBe(`${OUT_OF_DISK}\nRestarting it failed: The embedded PostgreSQL server did not start: the server exited`)
    expect(till.logs.some((line) => RUNNING_AGAIN.test(line))).toBe(false)
  })
})

describe('stopping a server that is kept running', () => {
  it('stops the first server when it never died', async () => {
    const till = supervised()
    await till.kept.stop()
    expect(till.first.stop).toHaveBeenCalledOnce()
  })

  it('stops the restarted server, not the one that died', async () => {
    const till = supervised()
    await till.kill()
    const restarted = till.current()
    await till.kept.stop()
    expect(restarted.stop).toHaveBeenCalledOnce()
    expect(till.first.stop).not.toHaveBeenCalled()
  })

  it('does not restart a server that dies after stop()', async () => {
    const till = supervised()
    await till.kept.stop()
    await till.kill()
    expect(till.restart).not.toHaveBeenCalled()
    expect(till.gaveUp()).toBeUndefined()
  })

  it('waits for a restart in progress, then stops the server it started', async () => {
    const restarting = deferred<RunningCluster>()
    const till = supervised({ restart: () => restarting.promise })
    await till.kill()
    expect(till.restart).toHaveBeenCalledOnce()

    let stopped = false
    const stopping = till.kept.stop().then(() => {
      stopped = true
    })
    await settle()
    // Returning now would leave the server being started running after Till has gone.
    expect(stopped).toBe(false)

    const restarted = fakeCluster()
    restarting.resolve(restarted)
    await stopping
    expect(restarted.stop).toHaveBeenCalledOnce()
    expect(till.logs.some((line) => RUNNING_AGAIN.test(line))).toBe(false)
    expect(till.gaveUp()).toBeUndefined()
  })
  it('aborts a restart still retrying when Till stops, and does not give up on account of it', async () => {
    let signal: AbortSignal | undefined
    // A start that retries until it is told to stop, as one does while the old server's port is held.
    const till = supervised({
      restart: (given) => {
        signal = given
        return new Promise((_, reject) => given.addEventListener('abort', () => reject(given.reason), { once: true }))
      },
    })
    await till.kill()
    expect(signal?.aborted).toBe(false)
    await till.kept.stop()
    expect(signal?.aborted).toBe(true)
    expect(till.gaveUp()).toBeUndefined()
  })
})
