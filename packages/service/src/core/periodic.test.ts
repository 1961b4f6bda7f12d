// Background jobs (expiry sweep, webhook dispatch, statistics compaction, sandbox confirmations, the EVM
// follower) all run on `periodic`: after a database outage each resumes by itself at its next tick, and the
// outage is not logged as an error at every tick of every job.
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DatabaseUnavailable } from '../db/port.ts'
import { periodic } from './periodic.ts'

function capturedLog() {
  const lines: { level: number; msg: string }[] = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()))
      done()
    },
  })
  return { log: pino({ level: 'debug' }, stream), lines }
}

const ERROR = 50
const DEBUG = 20

describe('periodic', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('starts at a random point of its first interval, so jobs started together do not all query at once', async () => {
    const { log } = capturedLog()
    const runs = (phase: number) => {
      const at: number[] = []
      const started = Date.now()
      const job = periodic({
        name: 'sweep',
        intervalMs: 1_000,
        log,
        phase: () => phase,
        run: async () => void at.push(Date.now() - started),
      })
      job.start()
      return { at, job }
    }
    const early = runs(0.1)
    const late = runs(0.7)
    await vi.advanceTimersByTimeAsync(2_500)
    await Promise.all([early.job.stop(), late.job.stop()])
    expect(early.at).toEqual([100, 1_100, 2_100])
    expect(late.at).toEqual([700, 1_700])
  })

  it('tries a failed run again at the next tick, until it succeeds', async () => {
    const { log, lines } = capturedLog()
    const outcomes = [new DatabaseUnavailable(new Error('connect ECONNREFUSED')), new DatabaseUnavailable(new Error('57P03')), undefined]
    const runs: number[] = []
    const job = periodic({
      name: 'expiry sweep',
      intervalMs: 1_000,
      log,
      run: async () => {
        runs.push(Date.now())
        const outcome = outcomes.shift()
        if (outcome) throw outcome
      },
    })
    job.start()
    await vi.advanceTimersByTimeAsync(3_000)
    await vi.advanceTimersByTimeAsync(0)
    await job.stop()
    expect(runs).toHaveLength(3)
    expect(outcomes).toEqual([])
    // The outage is the database's to announce, once: here it is only a debug line per tick.
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [DEBUG, 'expiry sweep waits for the database'],
      [DEBUG, 'expiry sweep waits for the database'],
    ])
  })

  it('logs any other failure as an error, and still runs at the next tick', async () => {
    const { log, lines } = capturedLog()
    let calls = 0
    const job = periodic({
      name: 'statistics compaction',
      intervalMs: 1_000,
      log,
      run: async () => {
        calls++
        if (calls === 1) throw new Error('a bug')
      },
    })
    job.start()
    await vi.advanceTimersByTimeAsync(2_000)
    await job.stop()
    expect(calls).toBe(2)
    expect(lines.map((line) => [line.level, line.msg])).toEqual([[ERROR, 'statistics compaction failed; retrying at the next tick']])
  })
})
