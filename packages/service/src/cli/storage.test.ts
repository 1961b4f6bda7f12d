// How `till serve` runs its embedded PostgreSQL server, seen from outside as an operator would: which
// processes exist, what survives a crash, and what the next start does about it.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { chmod, mkdtemp, rename, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isRoot } from '../db/embedded/account.ts'
import { isAlive } from '../db/embedded/processes.ts'
import { runTill, startTill } from './till-process.test-helper.ts'

// Each `till` process starts its own PostgreSQL server.
const PROCESS_TEST_TIMEOUT = 90_000

/** Every process below `pid`: the supervisor, the postmaster and its backends. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    const child = Number(name)
    if (!Number.isInteger(child)) continue
    try {
      const stat = readFileSync(`/proc/${child}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(parent, [...(children.get(parent) ?? []), child])
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = []
  for (let queue = [pid], next = queue.pop(); next !== undefined; next = queue.pop()) {
    const below = children.get(next) ?? []
    found.push(...below)
    queue.push(...below)
  }
  return found
}

const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
const postmasterOf = (dataDir: string) => Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0])
const parentOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
}

const headersOf = (ready: Record<string, unknown>) => ({
  'api-key': String(ready.apiKey),
  'merchant-id': String(ready.merchantId),
  'content-type': 'application/json',
})

async function createPayment(ready: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${String(ready.baseUrl)}/v1/merchant/payment`, {
    method: 'POST',
    headers: headersOf(ready),
    body: JSON.stringify({ amount: { unit: 'iso4217/EUR', value: '1250' }, referenceId: `order-${Date.now()}` }),
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { paymentId: string }).paymentId
}

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'till-storage-'))
  // As root, Till runs PostgreSQL as the postgres user, who must be able to pass through.
  await chmod(root, 0o711)
})
afterAll(() => rm(root, { recursive: true, force: true }))

describe('till serve and its embedded PostgreSQL server', () => {
  it(
    'leaves no PostgreSQL process and no temporary data behind when it is killed with SIGKILL',
    async () => {
      const till = await startTill(['--sandbox'])
      const below = descendants(till.pid)
      const postmaster = below.find((pid) => commandOf(pid)[0]?.endsWith('/postgres'))
      expect(postmaster, 'a postgres process runs below till serve').toBeDefined()
      const dataDir = commandOf(postmaster!)[2]!
      expect(readdirSync(dataDir)).toContain('PG_VERSION')

      till.kill('SIGKILL')
      await expect.poll(() => below.filter(isAlive), { timeout: 5_000, interval: 50 }).toEqual([])
      await expect.poll(() => readdirSync(tmpdir()).includes(dataDir.split('/').at(-2)!), { interval: 50 }).toBe(false)
    },
    PROCESS_TEST_TIMEOUT,
  )

  it(
    'stops PostgreSQL with itself on SIGTERM and on SIGINT',
    async () => {
      for (const signal of ['SIGTERM', 'SIGINT'] as const) {
        const till = await startTill(['--sandbox'])
        const below = descendants(till.pid)
        expect(below.length).toBeGreaterThan(1)
        expect(await till.stop(signal), `${signal}: ${till.stderr()}`).toBe(0)
        expect(below.filter(isAlive)).toEqual([])
      }
    },
    PROCESS_TEST_TIMEOUT,
  )

  it(
    'refuses a second till serve on the same --data-dir, naming the first',
    async () => {
      const dataDir = join(root, 'shared')
      const first = await startTill(['--data-dir', dataDir])
      try {
        const second = await runTill(['serve', '--data-dir', dataDir])
        expect(second.code).toBe(1)
        expect(second.stderr).toContain(`in use by another Till process (pid ${first.pid})`)
      } finally {
        await first.stop()
      }
    },
    PROCESS_TEST_TIMEOUT,
  )

  it(
    'recovers a data directory whose server outlived a crash of Till and its supervisor, keeping the data',
    async () => {
      const dataDir = join(root, 'crashed')
      const first = await startTill(['--sandbox', '--data-dir', dataDir])
      const paymentId = await createPayment(first.ready)
      const postmaster = postmasterOf(dataDir)
      const supervisor = parentOf(postmaster)
      // Both at once, before the supervisor can stop the server or Till restart it: PostgreSQL runs on with
      // nobody watching. Till is frozen first, so that it cannot react to its supervisor's death.
      first.kill('SIGSTOP')
      process.kill(supervisor, 'SIGKILL')
      first.kill('SIGKILL')
      expect(isAlive(postmaster)).toBe(true)

      const second = await startTill(['--sandbox', '--data-dir', dataDir])
      try {
        expect(isAlive(postmaster)).toBe(false)
        expect(second.stderr()).toMatch(/left running on .* by a Till process that is gone/)
        const status = await fetch(`${String(second.ready.baseUrl)}/v1/merchant/payment/${paymentId}/status`, {
          headers: headersOf(second.ready),
        })
        expect(await status.json()).toEqual({ status: 'pending', isFinal: false })
      } finally {
        await second.stop()
      }
    },
    PROCESS_TEST_TIMEOUT,
  )

  it(
    'restarts its PostgreSQL server when it dies, on the same throwaway data, and serves on in the same process',
    async () => {
      const till = await startTill(['--sandbox'])
      try {
        const paymentId = await createPayment(till.ready)
        const postmaster = descendants(till.pid).find((pid) => commandOf(pid)[0]?.endsWith('/postgres'))
        const dataDir = commandOf(postmaster!)[2]!
        process.kill(postmaster!, 'SIGKILL')
        await expect
          .poll(() => descendants(till.pid).find((pid) => pid !== postmaster && commandOf(pid)[0]?.endsWith('/postgres')), {
            timeout: 30_000,
            interval: 50,
          })
          .toBeDefined()
        // The payment made before the crash is still there: the temporary data outlived its server.
        await expect
          .poll(
            async () => {
              const status = await fetch(`${String(till.ready.baseUrl)}/v1/payments/${paymentId}/status`, {
                headers: headersOf(till.ready),
              })
              return status.status
            },
            { timeout: 10_000, interval: 50 },
          )
          .toBe(200)
        expect(isAlive(till.pid)).toBe(true)
        expect(till.stderr()).toMatch(/restarting it on the same data \(restart 1 of at most 5 within 10 minutes\)/)
        expect(till.stderr()).toMatch(/the embedded PostgreSQL server is running again/)
        expect(readdirSync(dataDir)).toContain('PG_VERSION')
      } finally {
        expect(await till.stop()).toBe(0)
      }
    },
    PROCESS_TEST_TIMEOUT,
  )

  it(
    "exits 1 with its own message and the server's log when its PostgreSQL server dies and cannot be restarted",
    async () => {
      const dataDir = join(root, 'unrecoverable')
      const till = await startTill(['--sandbox', '--data-dir', dataDir])
      // Without its control file the cluster cannot start again.
      await rename(join(dataDir, 'postgres', 'global', 'pg_control'), join(root, 'pg_control.moved'))
      process.kill(postmasterOf(dataDir), 'SIGKILL')
      expect(await till.exited()).toBe(1)
      expect(till.stderr()).toMatch(/the embedded PostgreSQL server stopped, and Till stops with it: it exited unexpectedly/)
      expect(till.stderr()).toMatch(/Restarting it failed: The embedded PostgreSQL server did not start[\s\S]*pg_control/)
      expect(till.stderr()).not.toMatch(/Uncaught|unhandled/i)
    },
    PROCESS_TEST_TIMEOUT,
  )

  it(
    'runs as an ordinary user too (here: nobody, since the suite runs as root)',
    async (context) => {
      if (!isRoot()) context.skip('the suite runs as an ordinary user already: every other test here covers it')
      const bin = fileURLToPath(new URL('../../bin/till.mjs', import.meta.url))
      if (spawnSync('test', ['-r', bin], { uid: 65534, gid: 65534 }).status !== 0) {
        context.skip(`nobody cannot read this checkout (${bin}): it lies in a directory closed to other users`)
      }
      const till = await startTill(['--sandbox'], {}, { uid: 65534, gid: 65534 })
      try {
        const postmaster = descendants(till.pid).find((pid) => commandOf(pid)[0]?.endsWith('/postgres'))
        expect(readFileSync(`/proc/${postmaster}/status`, 'utf8')).toMatch(/^Uid:\s+65534\b/m)
        await createPayment(till.ready)
      } finally {
        expect(await till.stop()).toBe(0)
      }
    },
    PROCESS_TEST_TIMEOUT,
  )
})
