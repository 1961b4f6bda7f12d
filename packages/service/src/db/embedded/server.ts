import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { serverAccount, type ServerAccount } from './account.ts'
import { embeddedPrograms, type PostgresPrograms } from './binaries.ts'
import { initCluster, startCluster, type RunningCluster } from './cluster.ts'
import { reachablePrograms } from './reachable.ts'
import { copyTemplateCluster } from './template.ts'
import { lockDataDir, lockHolder } from './lock.ts'
import { commandLine, isAlive, stopPostmaster } from './processes.ts'
import { DEFAULT_RESTART_POLICY, keepRunning, type RestartPolicy } from './restarts.ts'

/** Till's embedded PostgreSQL server, serving one database for Till. */
export type EmbeddedServer = {
  /** The connection URL of `database` (Till's own: `till`). */
  url(database?: string): string
  port: number
  /** Where the data lives: `dataDir`, or a temporary directory removed at exit. */
  dir: string
  /**
   * Settles with a reason when the server stopped on its own (it crashed, or someone killed it) and Till
   * gave up restarting it: a restart failed, or the restart policy's budget is spent.
   */
  exited: Promise<string>
  stop(): Promise<void>
}

export type EmbeddedServerOptions = {
  /** Keep the data here across runs; a temporary directory, removed at exit, when omitted. */
  dataDir?: string | undefined
  /** Other PostgreSQL programs than the embedded ones (the tests' apt PostgreSQL). */
  programs?: PostgresPrograms
  /** Told of recoveries (an orphaned server stopped, a stale lock taken over, a crashed server restarted). */
  log?: (message: string) => void
  /** How often a server that stops on its own is restarted; `{ max: 0 }` never restarts it. */
  restarts?: RestartPolicy
  /** A port of its own choosing rather than one the kernel hands out (tests restart an "external" server in place). */
  port?: number
  /** More server settings (tests: `wal_level=replica` for a primary a streaming replica follows). */
  settings?: Record<string, string>
}

// The server is Till's alone, so Till's tables live in the database initdb makes: no CREATE DATABASE on start.
export const DATABASE = 'postgres'
const TEMP_PREFIX = 'till-pg-'

// A data directory's layout: the cluster, its log, the password Till connects with, and Till's lock. A
// throwaway directory's log sits beside it, so that it survives the directory when a start fails.
const paths = (dir: string, durable = true) => ({
  cluster: join(dir, 'postgres'),
  log: durable ? join(dir, 'postgres.log') : `${dir}.log`,
  password: join(dir, 'password'),
})

export async function startEmbeddedServer(options: EmbeddedServerOptions = {}): Promise<EmbeddedServer> {
  const log = options.log ?? (() => {})
  const account = await serverAccount()
  const programs = await reachablePrograms(options.programs ?? embeddedPrograms(), account)
  const durable = options.dataDir !== undefined
  const dir = durable ? resolve(String(options.dataDir)) : await temporaryDir(account, log)
  if (durable) await prepareDataDir(dir, account)
  const unlock = await lockDataDir(dir)
  const { cluster: dataDir, log: logFile } = paths(dir, durable)
  let start: (port?: number, signal?: AbortSignal) => Promise<RunningCluster>
  let cluster: RunningCluster | undefined
  try {
    await stopOrphan(dir, log)
    const { password } = durable ? { password: await storedPassword(dir) } : await copyTemplateCluster({ programs, account, dataDir })
    const common = {
      programs,
      dataDir,
      logFile,
      password,
      account,
      durable,
      ...(durable ? {} : { removeOnExit: dir }),
      ...(options.settings ? { settings: options.settings } : {}),
    }
    await initCluster(common)
    start = (port, signal) => startCluster({ ...common, ...(port === undefined ? {} : { port }), ...(signal ? { signal } : {}) })
    cluster = await start(options.port)
  } catch (error) {
    await cluster?.stop()
    await unlock()
    if (!durable) await rm(dir, { recursive: true, force: true })
    if (!durable) await rm(paths(dir, false).log, { force: true })
    throw error
  }
  const first = cluster
  const kept = keepRunning({
    first,
    // The same port: the connection URL Till's pool holds stays right.
    restart: async (signal) => {
      await stopOrphan(dir, log)
      return start(first.port, signal)
    },
    policy: options.restarts ?? DEFAULT_RESTART_POLICY,
    log,
  })
  return {
    url: (database = DATABASE) => first.url(database),
    port: first.port,
    dir,
    exited: kept.gaveUp,
    async stop() {
      await kept.stop()
      await unlock()
      if (!durable) {
        await rm(dir, { recursive: true, force: true })
        await rm(paths(dir, false).log, { force: true })
      }
    },
  }
}

async function prepareDataDir(dir: string, account: ServerAccount | undefined): Promise<void> {
  if (existsSync(join(dir, 'PG_VERSION'))) {
    throw new Error(
      `${dir} holds a database Till no longer reads (an older Till kept PGlite data directly in it). ` +
        'Give --data-dir an empty or new directory; the old data is not converted.',
    )
  }
  // As root, the directories Till creates let the server's user through to its cluster.
  await mkdir(dir, { recursive: true, mode: account ? 0o711 : 0o700 })
  if (account) await reachableBy(dir, account)
}

/**
 * As root the server runs as another user, who must be able to reach the cluster inside `dir`: Till's
 * own directory is opened for traversal, its parents are checked.
 */
async function reachableBy(dir: string, account: ServerAccount): Promise<void> {
  await chmod(dir, 0o711)
  for (let parent = dirname(dir); ; parent = dirname(parent)) {
    const info = await stat(parent)
    if ((info.mode & 0o001) === 0 && info.uid !== account.uid) {
      throw new Error(
        `PostgreSQL cannot run as root, so Till runs it as the user ${account.name}, who cannot reach ${dir}: ` +
          `${parent} is closed to other users. Choose a data directory outside it (for example under /var/lib), ` +
          'or run Till as an ordinary user.',
      )
    }
    if (parent === dirname(parent)) return
  }
}

async function storedPassword(dir: string): Promise<string> {
  const file = paths(dir).password
  const stored = (await readFile(file, 'utf8').catch(() => '')).trim()
  if (stored) return stored
  if (existsSync(join(paths(dir).cluster, 'PG_VERSION'))) {
    throw new Error(`${file} is missing, and the database in ${dir} cannot be opened without it.`)
  }
  const password = randomBytes(24).toString('base64url')
  await writeFile(file, `${password}\n`, { mode: 0o600 })
  return password
}

/**
 * After a crash the cluster may still be served by a postmaster nobody supervises (Till and its
 * supervisor were killed together), or hold a postmaster.pid of a server long gone whose pid now
 * belongs to another process, which PostgreSQL would take for a live server. Called with the lock held,
 * so no live Till owns that server.
 */
async function stopOrphan(dir: string, log: (message: string) => void): Promise<void> {
  const { cluster } = paths(dir)
  const pidFile = join(cluster, 'postmaster.pid')
  const pid = Number.parseInt((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0] ?? '', 10)
  if (!Number.isInteger(pid) || pid <= 0) return
  if (isAlive(pid) && commandLine(pid)?.includes(cluster)) {
    log(`stopping the PostgreSQL server (pid ${pid}) left running on ${dir} by a Till process that is gone`)
    await stopPostmaster(pid)
  } else {
    log(`removing the stale ${pidFile} of a PostgreSQL server that is gone`)
  }
  await rm(pidFile, { force: true })
}

/** A new throwaway directory, after removing those whose Till died without its supervisor cleaning up. */
async function temporaryDir(account: ServerAccount | undefined, log: (message: string) => void): Promise<string> {
  const names: string[] = await readdir(tmpdir()).catch(() => [])
  for (const name of names.filter((entry) => entry.startsWith(TEMP_PREFIX))) {
    const dir = join(tmpdir(), name)
    if (name.endsWith('.log')) {
      // The log of a failed start whose Till died before reading it.
      if (!names.includes(name.slice(0, -'.log'.length))) await rm(dir, { force: true }).catch(() => {})
      continue
    }
    const holder = await lockHolder(dir)
    // No lock yet: another Till is creating it right now.
    if (holder === undefined || isAlive(holder)) continue
    await stopOrphan(dir, log).catch(() => {})
    await rm(dir, { recursive: true, force: true }).catch(() => {})
  }
  const dir = await mkdtemp(join(tmpdir(), TEMP_PREFIX))
  // The supervisor, running as the server's user, deletes it at the end: in a sticky /tmp only its owner can.
  if (account) await chown(dir, account.uid, account.gid)
  return dir
}
