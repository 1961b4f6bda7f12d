// The PostgreSQL adapter when connections die under it: a server ending a session in the middle of a
// transaction (as a restart or failover does to every session), a statement that never answers, and the one
// "down" and one "up" an outage is logged with.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openTestDatabase, type TestDatabase } from '../../test/database.ts'
import { DatabaseUnavailable } from './port.ts'
import { type OutageEvent, openPostgres } from './postgres.ts'

let tdb: TestDatabase
beforeAll(async () => {
  tdb = await openTestDatabase()
})
afterAll(() => tdb.close())

/** Ends a session from outside, as the server does to every session when it shuts down, and waits until it is gone. */
async function terminate(pid: number) {
  await tdb.db.query('SELECT pg_terminate_backend($1)', [pid])
  await vi.waitFor(async () => expect(await tdb.db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).toEqual([]), {
    interval: 10,
  })
}

describe('the PostgreSQL adapter', () => {
  it('turns a session ended between two statements of a transaction into DatabaseUnavailable, not an uncaught error', async () => {
    const outcome = tdb.db.transaction(async (tx) => {
      const [session] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
      // The server's FATAL arrives while no statement is running: the client's 'error' event, which without a
      // listener ends the process.
      await terminate(Number(session?.pid))
      await tx.query('SELECT 1')
    })
    await expect(outcome).rejects.toBeInstanceOf(DatabaseUnavailable)
    // The broken connection was not handed back: the next transaction works.
    expect(await tdb.db.transaction((tx) => tx.query('SELECT 1 AS one'))).toEqual([{ one: 1 }])
  })

  it('rolls back a transaction whose work throws, and keeps its connection', async () => {
    await tdb.db.exec('CREATE TABLE IF NOT EXISTS adapter_notes (note text)')
    const refused = new Error('refused by the work')
    await expect(
      tdb.db.transaction(async (tx) => {
        await tx.query("INSERT INTO adapter_notes VALUES ('rolled back')")
        throw refused
      }),
    ).rejects.toBe(refused)
    expect(await tdb.db.query('SELECT note FROM adapter_notes')).toEqual([])
  })

  it('has the server cancel a statement past its deadline: a 503 for the caller, no outage, the session freed', async () => {
    const events: OutageEvent['state'][] = []
    const db = await openPostgres({ url: tdb.url, max: 2, queryTimeoutMs: 20, onOutage: (event) => events.push(event.state) })
    try {
      await expect(db.query("SELECT pg_sleep(5), 'slow' AS marker")).rejects.toBeInstanceOf(DatabaseUnavailable)
      // The server stopped the statement itself: its session is no longer running it (once the view catches up).
      const stillRunning =
        "SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%''slow'' AS marker%' AND pid <> pg_backend_pid()"
      await vi.waitFor(async () => expect(await tdb.db.query(stillRunning)).toEqual([]), { interval: 10 })
      expect(await db.query('SELECT 2 AS two')).toEqual([{ two: 2 }])
      expect(events).toEqual([])
    } finally {
      await db.close()
    }
  })

  it('runs scripts (migrations, bulk work) without the deadline, and gives the connection back with it', async () => {
    const db = await openPostgres({ url: tdb.url, max: 1, queryTimeoutMs: 20 })
    try {
      await db.exec('SELECT pg_sleep(0.1); SELECT 1')
      expect(await db.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '20ms' }])
      await db.transaction((tx) => tx.exec('SELECT pg_sleep(0.1)'))
      expect(await db.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '20ms' }])
    } finally {
      await db.close()
    }
  })

  it('tells of an outage once when it starts and once when it ends, however many statements fail', async () => {
    const events: OutageEvent['state'][] = []
    const db = await openPostgres({ url: tdb.url, max: 1, onOutage: (event) => events.push(event.state) })
    try {
      const [session] = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
      // The pool's only connection is ended while idle: the next statements find it gone, then a new one works.
      let failures: PromiseSettledResult<unknown>[] = []
      const committed = db.transaction(async (tx) => {
        await terminate(Number(session?.pid))
        failures = await Promise.allSettled([tx.query('SELECT 1'), tx.query('SELECT 1')])
      })
      await expect(committed).rejects.toBeInstanceOf(DatabaseUnavailable)
      expect(failures.map((failure) => failure.status === 'rejected' && failure.reason instanceof DatabaseUnavailable)).toEqual([
        true,
        true,
      ])
      expect(events).toEqual(['down'])
      expect(await db.query('SELECT 3 AS three')).toEqual([{ three: 3 }])
      expect(await db.query('SELECT 4 AS four')).toEqual([{ four: 4 }])
      expect(events).toEqual(['down', 'up'])
    } finally {
      await db.close()
    }
  })
})
