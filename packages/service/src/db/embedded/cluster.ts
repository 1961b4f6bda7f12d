import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chown, mkdir, open, rm, writeFile } from 'node:fs/promises'
import net from 'node:net'
import { basename, join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import type { ServerAccount } from './account.ts'
import { SUPERVISOR_SCRIPT, type PostgresPrograms } from './binaries.ts'
import { logTail, type RunningCluster, supervised, waitUntilReady } from './supervised.ts'

export type { RunningCluster } from './supervised.ts'

/** The role Till connects as: the cluster's superuser, created by initdb. */
export const ROLE = 'till'

export type ClusterOptions = {
  programs: PostgresPrograms
  /** PGDATA. initdb creates it when it holds no cluster yet. */
  dataDir: string
  /** The server's log, read for error messages: outside `removeOnExit`, so that it outlives a failed start. */
  logFile: string
  /** The role's password: set by initdb, then required of every connection. */
  password: string
  /** The user to run as (root cannot run PostgreSQL); the current user when undefined. */
  account: ServerAccount | undefined
  /** fsync on: the data must survive a crash. Off for throwaway data, which makes tests fast. */
  durable: boolean
  /** Deleted by the supervisor once the server has stopped, however Till ended. */
  removeOnExit?: string
  /** More `-c name=value` settings. */
  settings?: Record<string, string>
  /**
   * The port to listen on: a restart keeps the one its connections know. Without it the kernel hands
   * one out.
   */
  port?: number
  /** Ends the attempts to start (Till is stopping): the start fails at once. */
  signal?: AbortSignal
}

const PORT_ATTEMPTS = 3
// A restart on the same port and data may find what the crashed server left: its port not yet released,
// its shared memory still held by backends that have not yet noticed they are orphans.
const RESTART_ATTEMPTS = 6
const RESTART_BACKOFF_MS = 250
const LEFTOVERS = /could not bind|Address already in use|pre-existing shared memory block|lock file ".*" already exists/i

/**
 * Small and quiet: Till's pool is 16 connections, the tests' a few per file. PostgreSQL 18's I/O
 * workers and the replication launchers would be idle processes here.
 */
const BASE_SETTINGS: Record<string, string> = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  max_connections: '200',
  shared_buffers: '64MB',
  max_wal_senders: '0',
  wal_level: 'minimal',
  max_logical_replication_workers: '0',
  password_encryption: 'scram-sha-256',
  log_min_messages: 'warning',
}

/** Since PostgreSQL 18 reads go through I/O worker processes by default; synchronous reads need none. */
const PG18_SETTINGS: Record<string, string> = { io_method: 'sync' }

// No fsync: throwaway data need not survive the machine crashing. synchronous_commit stays on, so every
// acknowledged commit is in the kernel's hands and survives the server crashing, and Till restarting it.
const THROWAWAY_SETTINGS: Record<string, string> = { fsync: 'off', full_page_writes: 'off' }

// PGPORT, PGDATABASE and friends must not steer the server or its programs elsewhere.
function serverEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { LC_ALL: 'C' }
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('PG') && name !== 'LC_ALL') env[name] = value
  return env
}

function asAccount(account: ServerAccount | undefined) {
  return account ? { uid: account.uid, gid: account.gid } : {}
}

/** Creates the cluster in `dataDir` with the role `till` and its password, unless one is there. */
export async function initCluster(options: ClusterOptions): Promise<void> {
  if (existsSync(join(options.dataDir, 'PG_VERSION'))) return
  // initdb wants an empty directory the server's user owns; as root, the parent is not that user's.
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 })
  if (options.account) await chown(options.dataDir, options.account.uid, options.account.gid)
  const passwordFile = `${options.dataDir}.password`
  await writeFile(passwordFile, `${options.password}\n`, { mode: 0o600 })
  if (options.account) await chown(passwordFile, options.account.uid, options.account.gid)
  const args = [
    '-D',
    options.dataDir,
    '-U',
    ROLE,
    `--pwfile=${passwordFile}`,
    '--auth=scram-sha-256',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-instructions',
  ]
  if (!options.durable) args.push('--no-sync')
  try {
    await runToEnd(options.programs.initdb, args, options.account)
  } finally {
    await rm(passwordFile, { force: true })
  }
}

/** Runs a program as `account` to its end; a failure carries its output. */
export function runToEnd(file: string, args: string[], account: ServerAccount | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env: serverEnv(), stdio: ['ignore', 'pipe', 'pipe'], ...asAccount(account) })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('error', reject)
    child.once('close', (code, signal) => {
      if (code === 0) resolve()
      else reject(new Error(`${basename(file)} failed (${signal ?? `exit code ${code}`}):\n${output.trim()}`))
    })
  })
}

/** A port nobody listens on right now; the server may still lose it to someone else, hence the retries. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Starts the server under its supervisor, on `options.port` or one the kernel hands out, and waits until it answers. */
export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const settings = {
    ...BASE_SETTINGS,
    ...(options.programs.major >= 18 ? PG18_SETTINGS : {}),
    ...(options.durable ? {} : THROWAWAY_SETTINGS),
    ...options.settings,
  }
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted()
    const port = options.port ?? (await freePort())
    const args = [
      '-D',
      options.dataDir,
      '-p',
      String(port),
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ]
    const log = await open(options.logFile, 'a')
    // The supervisor removes a throwaway log; in a sticky /tmp only its owner can.
    if (options.account) await log.chown(options.account.uid, options.account.gid)
    const supervisor = spawn(
      'bash',
      [
        '-c',
        SUPERVISOR_SCRIPT,
        'till-postgres-supervisor',
        options.removeOnExit ?? '',
        options.logFile,
        options.programs.postgres,
        ...args,
      ],
      {
        // Its own process group: a Ctrl-C in Till's terminal must not stop the database under Till's feet.
        detached: true,
        env: serverEnv(),
        stdio: ['pipe', log.fd, log.fd],
        ...asAccount(options.account),
      },
    )
    await log.close()
    const running = supervised(supervisor, port, { ...options, role: ROLE })
    try {
      await waitUntilReady(supervisor, options.dataDir, options.signal)
      running.started()
      return running
    } catch (error) {
      await running.stop().catch(() => {})
      const tail = await logTail(options.logFile, options)
      if (options.port === undefined && attempt < PORT_ATTEMPTS && /could not bind|Address already in use/i.test(tail)) continue
      if (options.port !== undefined && attempt < RESTART_ATTEMPTS && LEFTOVERS.test(tail)) {
        await delay(RESTART_BACKOFF_MS * 2 ** (attempt - 1), undefined, { signal: options.signal })
        continue
      }
      throw new Error(
        `The embedded PostgreSQL server did not start: ${(error as Error).message}\n--- its log (${options.logFile}) ---\n${tail}`,
      )
    }
  }
}
