import { existsSync } from 'node:fs'
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverAccount } from './account.ts'
import { embeddedPrograms } from './binaries.ts'
import { initCluster, startCluster } from './cluster.ts'
import { reachablePrograms } from './reachable.ts'
import { startEmbeddedServer } from './server.ts'
import { isAlive } from './processes.ts'

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'till-embedded-'))
  // Run as root, Till runs the server as the postgres user, who must be able to pass through.
  await chmod(root, 0o711)
})
afterAll(() => rm(root, { recursive: true, force: true }))

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(sql)).rows
  } finally {
    await client.end()
  }
}

const postmasterPid = async (dir: string) => Number((await readFile(join(dir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0])

describe('the embedded PostgreSQL server', () => {
  it('serves PostgreSQL 18 on 127.0.0.1 with a password, and leaves nothing behind in a temporary directory', async () => {
    const server = await startEmbeddedServer()
    const url = new URL(server.url())
    expect(url.hostname).toBe('127.0.0.1')
    expect(url.password.length).toBeGreaterThanOrEqual(32)
    const [row] = await query<{ version: string }>(server.url(), "SELECT current_setting('server_version_num') AS version")
    expect(Number(row?.version)).toBeGreaterThanOrEqual(180_000)
    // The password is required: the same URL without it is refused.
    url.password = ''
    await expect(query(url.href, 'SELECT 1')).rejects.toThrow(/password/)

    const pid = await postmasterPid(server.dir)
    await server.stop()
    expect(isAlive(pid)).toBe(false)
    expect(existsSync(server.dir)).toBe(false)
  })

  it('keeps its data in a data directory across runs, and lets one Till at a time use it', async () => {
    const dataDir = join(root, 'nested', 'kept')
    const first = await startEmbeddedServer({ dataDir })
    await query(first.url(), "CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')")
    await expect(startEmbeddedServer({ dataDir })).rejects.toThrow(/in use by another Till process \(pid \d+\)/)
    await first.stop()

    const second = await startEmbeddedServer({ dataDir })
    try {
      expect(await query(second.url(), 'SELECT value FROM kept')).toEqual([{ value: 'still here' }])
    } finally {
      await second.stop()
    }
  })

  it('starts after a crash left a postmaster.pid naming a process that is not PostgreSQL', async () => {
    const dataDir = join(root, 'crashed')
    await (await startEmbeddedServer({ dataDir })).stop()
    // The pid of a live process that is no server of this directory: this test's own.
    const pidFile = join(dataDir, 'postgres', 'postmaster.pid')
    await writeFile(pidFile, `${process.pid}\n${join(dataDir, 'postgres')}\n`)
    await writeFile(join(dataDir, 'till.pid'), '999999999')
    const logs: string[] = []
    const server = await startEmbeddedServer({ dataDir, log: (line) => logs.push(line) })
    try {
      expect(await query(server.url(), 'SELECT 1 AS one')).toEqual([{ one: 1 }])
      expect(logs.join('\n')).toMatch(/removing the stale .*postmaster\.pid/)
    } finally {
      await server.stop()
    }
  })

  it("refuses a directory holding an older Till's PGlite data, saying what to do", async () => {
    const dataDir = join(root, 'pglite')
    await mkdir(dataDir, { recursive: true })
    await writeFile(join(dataDir, 'PG_VERSION'), '17\n')
    await expect(startEmbeddedServer({ dataDir })).rejects.toThrow(/older Till kept PGlite data[\s\S]*empty or new directory/)
  })

  it('says why when the server does not start, quoting its log', async () => {
    const dir = await mkdtemp(join(root, 'broken-'))
    const account = await serverAccount()
    const options = {
      programs: await reachablePrograms(embeddedPrograms(), account),
      dataDir: join(dir, 'postgres'),
      logFile: join(root, `${dir.split('/').at(-1)}.log`),
      password: 'x'.repeat(32),
      account,
      durable: false,
      removeOnExit: dir,
    }
    if (account) await chown(dir, account.uid, account.gid)
    await initCluster(options)
    await expect(startCluster({ ...options, settings: { shared_buffers: 'plenty' } })).rejects.toThrow(
      /did not start[\s\S]*invalid value for parameter "shared_buffers"/,
    )
    expect(existsSync(options.logFile)).toBe(false)
  })
})
