import type { ChildProcess } from 'node:child_process'
import { readFile, rm } from 'node:fs/promises'
import type net from 'node:net'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'

export type RunningCluster = {
  port: number
  /** A connection URL for `database` on this server. */
  url(database: string): string
  /** Settles with a reason when the server stops without stop() having been called. */
  exited: Promise<string>
  /** Asks for a fast shutdown and waits until the server and its supervisor are gone. */
  stop(): Promise<void>
}

const READY_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 10_000

type LogOptions = { logFile: string; removeOnExit?: string | undefined }

/** The end of the server's log, for an error message; a throwaway log is removed once read. */
export async function logTail(file: string, options: Pick<LogOptions, 'removeOnExit'>): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '')
  if (options.removeOnExit) await rm(file, { force: true })
  return text.trim().split('\n').slice(-30).join('\n') || '(the server wrote no log)'
}

/** The server running under its supervisor (`supervisor.sh`): how it is reached, noticed dying, and stopped. */
export function supervised(supervisor: ChildProcess, port: number, options: LogOptions & { role: string; password: string }) {
  let stopping = false
  let started = false
  const gone = new Promise<void>((resolve) => supervisor.once('exit', () => resolve()))
  // Only a server that was up can exit "unexpectedly"; a failed start is startCluster's to report.
  const exited = new Promise<string>((resolve) => {
    void gone.then(async () => {
      if (started && !stopping) resolve(`it exited unexpectedly. Its log:\n${await logTail(options.logFile, options)}`)
    })
  })
  // Neither the process nor the pipe may keep Till's event loop alive: whatever ends Till ends the server.
  supervisor.unref()
  ;(supervisor.stdin as net.Socket | null)?.unref()
  supervisor.stdin?.on('error', () => {})
  const running: RunningCluster & { started(): void } = {
    started: () => {
      started = true
    },
    port,
    url: (database) =>
      `postgres://${options.role}:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    exited,
    async stop() {
      stopping = true
      // Waiting for it must keep this process alive, which the unref above would not.
      supervisor.ref()
      supervisor.stdin?.end()
      const timeout = delay(STOP_TIMEOUT_MS, 'timeout' as const, { ref: false })
      if ((await Promise.race([gone.then(() => 'gone' as const), timeout])) === 'timeout' && supervisor.pid) {
        // The whole group: the supervisor, the server and whatever the server started.
        process.kill(-supervisor.pid, 'SIGKILL')
        await gone
      }
    },
  }
  return running
}

/**
 * PostgreSQL writes "ready" as the status line of postmaster.pid once it accepts connections: reading a
 * file is cheaper than a trial connection with its password exchange, and Till connects right after.
 */
export async function waitUntilReady(supervisor: ChildProcess, dataDir: string, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  let spawnError: Error | undefined
  supervisor.once('error', (error) => (spawnError = error))
  for (;;) {
    signal?.throwIfAborted()
    if (spawnError) throw spawnError
    if (supervisor.exitCode !== null || supervisor.signalCode !== null) throw new Error('the server exited')
    const status = (await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[7]
    if (status?.trim() === 'ready') return
    if (Date.now() > deadline) throw new Error(`it did not accept connections within ${READY_TIMEOUT_MS / 1000} s`)
    await delay(10)
  }
}
