// The listing on a read replica (ADR 36), against a real streaming replica made from the embedded binaries
// with the low-level base backup API: pg_backup_start, a copy of the data directory, pg_backup_stop's
// backup_label, standby.signal. Replay is paused and resumed on the replica to make it lag; the guard's
// clock is the test's, and the guard is checked by hand where the lag is measured.
import { spawnSync } from 'node:child_process'
import { chown, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'
import { type Account, createAccount, createBody, type TestDatabase, testApp, testClock } from '../../test/fixtures.ts'
import { serverAccount } from './embedded/account.ts'
import { embeddedPrograms } from './embedded/binaries.ts'
import { type RunningCluster, startCluster } from './embedded/cluster.ts'
import { reachablePrograms } from './embedded/reachable.ts'
import { type EmbeddedServer, startEmbeddedServer } from './embedded/server.ts'
import { migrate } from './migrate.ts'
import type { Database } from './port.ts'
import { openPostgres } from './postgres.ts'
import { readRouter } from './replica.ts'

const REPLICATION = { wal_level: 'replica', max_wal_senders: '4', hot_standby: 'on' }
const clock = testClock()
let primary: EmbeddedServer
let standby: RunningCluster | undefined
let standbyDir: string
let primaryDb: Database
let replicaDb: Database
let app: Awaited<ReturnType<typeof testApp>>
let account: Account

/** A hot standby of `server`, streaming from it through a replication slot. */
async function streamingReplica(server: EmbeddedServer): Promise<RunningCluster> {
  const owner = await serverAccount()
  const url = new URL(server.url())
  const admin = new pg.Client({ connectionString: server.url() })
  await admin.connect()
  try {
    await admin.query(`SELECT pg_create_physical_replication_slot('till_replica', true)`)
    await admin.query(`SELECT pg_backup_start('till replica', true)`)
    standbyDir = await mkdtemp(join(tmpdir(), 'till-standby-'))
    if (owner) await chown(standbyDir, owner.uid, owner.gid)
    const copy = join(standbyDir, 'postgres')
    // As the server's files are: cp -a keeps their owner and modes.
    const copied = spawnSync('cp', ['-a', join(server.dir, 'postgres'), copy], { encoding: 'utf8' })
    if (copied.status !== 0) throw new Error(`copying the data directory failed: ${copied.stderr}`)
    for (const file of ['postmaster.pid', 'postmaster.opts']) await rm(join(copy, file), { force: true })
    // The standby streams the WAL from the slot's start: none of the primary's files are needed.
    for (const file of await readdir(join(copy, 'pg_wal'))) {
      if (file !== 'archive_status' && file !== 'summaries') await rm(join(copy, 'pg_wal', file), { force: true, recursive: true })
    }
    const [stopped] = (await admin.query<{ labelfile: string }>('SELECT labelfile FROM pg_backup_stop(true)')).rows
    const own = async (file: string, content: string) => {
      await writeFile(join(copy, file), content, { mode: 0o600 })
      if (owner) await chown(join(copy, file), owner.uid, owner.gid)
    }
    await own('backup_label', stopped?.labelfile ?? '')
    await own('standby.signal', '')
    const conninfo = `host=127.0.0.1 port=${url.port} user=${url.username} password=${decodeURIComponent(url.password)}`
    return await startCluster({
      programs: await reachablePrograms(embeddedPrograms(), owner),
      dataDir: copy,
      logFile: join(standbyDir, 'postgres.log'),
      password: decodeURIComponent(url.password),
      account: owner,
      durable: false,
      settings: { ...REPLICATION, primary_conninfo: conninfo, primary_slot_name: 'till_replica' },
    })
  } finally {
    await admin.end()
  }
}

beforeAll(async () => {
  primary = await startEmbeddedServer({ settings: REPLICATION })
  primaryDb = await openPostgres({ url: primary.url() })
  await migrate(primaryDb)
  standby = await streamingReplica(primary)
  replicaDb = await openPostgres({ url: standby.url(new URL(primary.url()).pathname.slice(1)) })
  // The guard checks every 50 ms; how far behind the replica is, is measured on the test's clock.
  app = await testApp(primaryDb, { clock, replica: { db: replicaDb, maxLagMs: 5_000 }, config: { jobs: { replicaCheckMs: 50 } } })
  account = await createAccount(primaryDb)
}, 120_000)
afterAll(async () => {
  await app?.close()
  await replicaDb?.close().catch(() => {})
  await primaryDb?.close()
  await standby?.stop()
  await primary?.stop()
  if (standbyDir) await rm(standbyDir, { recursive: true, force: true })
})

const create = async (referenceId: string) => {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/merchant/payment',
    headers: account.headers,
    payload: createBody({ referenceId }),
  })
  expect(response.statusCode).toBe(201)
  return response.json<{ paymentId: string }>().paymentId
}
const listed = async () => {
  const response = await app.inject({ url: '/v1/merchants/payments?limit=100', headers: account.headers })
  expect(response.statusCode).toBe(200)
  return response.json<{ data: { paymentId: string }[] }>().data.map((payment) => payment.paymentId)
}
const onReplica = (sql: string) => replicaDb.query(sql)
/** Stops replay, and waits until it has stopped (a pause is only requested at first). */
async function pauseReplay(): Promise<void> {
  await onReplica('SELECT pg_wal_replay_pause()')
  await expect
    .poll(async () => (await replicaDb.query<{ state: string }>('SELECT pg_get_wal_replay_pause_state() AS state'))[0]?.state, {
      timeout: 10_000,
    })
    .toBe('paused')
}
/** Waits until the replica has replayed everything the primary holds now. */
async function caughtUp(): Promise<void> {
  const [{ lsn } = { lsn: '' }] = await primaryDb.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')
  await expect
    .poll(async () => (await replicaDb.query<{ ok: boolean }>(`SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok`, [lsn]))[0]?.ok, {
      timeout: 30_000,
    })
    .toBe(true)
}

describe('the lag guard, checked by hand', () => {
  const guardClock = testClock()
  const router = () => readRouter({ primary: primaryDb, replica: replicaDb, maxLagMs: 5_000, clock: guardClock, intervalMs: 0 })

  it('sends reads to the replica while it keeps up, to the primary once it lags, and back once it has caught up', async () => {
    const reads = router()
    await caughtUp()
    await reads.check()
    expect(reads.state()).toEqual({ replica: true, lagMs: 0 })

    // Replay stops; the primary moves on. Just noted, that is no lag yet.
    await pauseReplay()
    await create('guard-1')
    await reads.check()
    expect(reads.state()).toEqual({ replica: true, lagMs: 0 })
    guardClock.advance(4_000)
    await reads.check()
    expect(reads.state()).toEqual({ replica: true, lagMs: 4_000 })
    // Past the 5 s bound: the primary.
    guardClock.advance(2_000)
    await reads.check()
    expect(reads.state()).toEqual({ replica: false, lagMs: 6_000 })

    await onReplica('SELECT pg_wal_replay_resume()')
    await caughtUp()
    await reads.check()
    expect(reads.state()).toEqual({ replica: true, lagMs: 0 })
  })

  it('reads its own writes from the primary until the replica has them', async () => {
    const reads = router()
    await caughtUp()
    await reads.check()
    await pauseReplay()
    await create('guard-2')
    await reads.afterWrite()
    expect(reads.state().replica).toBe(false)
    await onReplica('SELECT pg_wal_replay_resume()')
    await caughtUp()
    await reads.check()
    expect(reads.state().replica).toBe(true)
  })
})

describe("the dashboard's lists", () => {
  it("read the replica, except a browser's own changes, which it reads from the primary until the replica has them", async () => {
    const owner = await dashboardMember({ tdb: { db: primaryDb } as TestDatabase, app }, clock, account, 'owner')
    const keys = (cookies: string) =>
      app.inject({ url: '/dashboard/api/api-keys', headers: { cookie: cookies } }).then((response) => {
        expect(response.statusCode).toBe(200)
        return response.json<{ data: { label: string | null }[] }>().data.map((key) => key.label)
      })
    await caughtUp()
    await pauseReplay()
    const made = await owner.post('/dashboard/api/api-keys', { label: 'Kiosk' })
    expect(made.statusCode).toBe(201)
    const wrote = String(made.headers['set-cookie'])
    expect(wrote).toMatch(/^till_wrote=[0-9a-f]+; Max-Age=6; Path=\/dashboard\/api; HttpOnly; SameSite=Strict; Secure$/)
    // The browser that made it sees it (from the primary); the replica, which another browser reads, not yet.
    expect(await keys(`${owner.cookie}; ${wrote.split(';')[0]}`)).toContain('Kiosk')
    expect(await keys(owner.cookie)).not.toContain('Kiosk')
    await onReplica('SELECT pg_wal_replay_resume()')
    await caughtUp()
    await expect.poll(() => keys(owner.cookie), { timeout: 10_000 }).toContain('Kiosk')
  })
})

describe('the listing', () => {
  it('is read from the replica: a payment the replica has not replayed yet is not listed', async () => {
    const first = await create('replica-1')
    await caughtUp()
    await expect.poll(listed, { timeout: 10_000 }).toContain(first)
    await pauseReplay()
    const second = await create('replica-2')
    expect(await listed()).not.toContain(second)
    await onReplica('SELECT pg_wal_replay_resume()')
    await caughtUp()
    await expect.poll(listed, { timeout: 10_000 }).toContain(second)
  })

  it('is read from the primary when the replica goes away', async () => {
    await caughtUp()
    await pauseReplay()
    const third = await create('replica-3')
    expect(await listed()).not.toContain(third)
    await standby?.stop()
    standby = undefined
    expect(await listed()).toContain(third)
  })
})
