// Starting and stopping the servers under test. Each runs in a child process of its own, so the load
// generator in this process never shares an event loop with the server it measures.
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { SandboxReadyLine } from '@till/contract'

const TILL_BIN = fileURLToPath(new URL('../bin/till.mjs', import.meta.url))
const HELLO_SERVER = fileURLToPath(new URL('./hello-server.mjs', import.meta.url))

// Two services compile their TypeScript with tsx and migrate a database at the same time on two cores.
const READY_TIMEOUT_MS = 60_000
// `till serve` finishes requests in flight for up to 10 s after SIGTERM; a little more, then SIGKILL.
const STOP_TIMEOUT_MS = 12_000
// A server that logs a warning per request under load would flood the table; show the first few.
const FORWARDED_LOG_LINES = 20

export type TillReady = SandboxReadyLine

export type RunningServer<Ready> = {
  name: string
  pid: number
  ready: Ready
  /** How many lines the server wrote to stderr (its logs at warn level and above). */
  logLines(): number
  /** SIGTERM, then SIGKILL if it does not exit in time. Safe to call more than once. */
  stop(): Promise<void>
}

/** Children not yet reaped: what cleanup has to kill, whatever way this process ends. */
const live = new Set<ChildProcess>()

/** Once the run is interrupted, servers complaining that their database went away are noise. */
let forwardLogs = true
export function silenceServerLogs() {
  forwardLogs = false
}

/**
 * The child's environment: ours, less anything that would steer `till serve` elsewhere. TILL_* and
 * DATABASE_URL are its own settings, PG* are read by node-postgres; NODE_OPTIONS may carry a loader.
 */
function childEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('TILL_') && !key.startsWith('PG') && key !== 'DATABASE_URL' && key !== 'NODE_OPTIONS',
    ),
  )
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

/** Splits a stream into lines, calling `onLine` for each complete one. */
function onLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void) {
  let pending = ''
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => {
    pending += chunk
    let newline = pending.indexOf('\n')
    while (newline >= 0) {
      onLine(pending.slice(0, newline))
      pending = pending.slice(newline + 1)
      newline = pending.indexOf('\n')
    }
  })
}

/**
 * Spawns `node [nodeFlags] script args` and waits for its first stdout line, a JSON object that
 * `parse` turns into the ready value. Fails with the child's last log lines if it exits or hangs first.
 */
async function startNodeChild<Ready>(input: {
  name: string
  script: string
  args: readonly string[]
  nodeFlags?: readonly string[]
  parse: (value: unknown) => Ready | undefined
}): Promise<RunningServer<Ready>> {
  const { name } = input
  const child = spawn(process.execPath, [...(input.nodeFlags ?? []), input.script, ...input.args], {
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  live.add(child)
  child.once('exit', () => live.delete(child))

  const tail: string[] = []
  let logCount = 0
  onLines(child.stderr, (line) => {
    logCount++
    tail.push(line)
    if (tail.length > 30) tail.shift()
    if (!forwardLogs) return
    if (logCount <= FORWARDED_LOG_LINES) process.stderr.write(`[${name}] ${line}\n`)
    else if (logCount === FORWARDED_LOG_LINES + 1) process.stderr.write(`[${name}] … further log lines suppressed\n`)
  })

  const ready = await new Promise<Ready>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer)
      const log = tail.length > 0 ? `\n--- last log lines of ${name} ---\n${tail.join('\n')}` : ''
      reject(new Error(`${name} did not start: ${why}${log}`))
    }
    const timer = setTimeout(() => fail(`no ready line within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS)
    child.once('error', (error) => fail(error.message))
    child.once('exit', (code, signal) => fail(`it exited (${signal ?? `exit code ${code}`})`))
    let seen = false
    onLines(child.stdout, (line) => {
      if (seen) return
      seen = true
      let value: unknown
      try {
        value = JSON.parse(line)
      } catch {
        fail(`its first stdout line is not JSON: ${line.slice(0, 200)}`)
        return
      }
      const parsed = input.parse(value)
      if (parsed === undefined) {
        fail(`unexpected ready line: ${line.slice(0, 200)}`)
        return
      }
      clearTimeout(timer)
      resolve(parsed)
    })
  }).catch(async (error: unknown) => {
    await stopChild(child)
    throw error
  })

  let stopping: Promise<void> | undefined
  return {
    name,
    pid: child.pid ?? -1,
    ready,
    logLines: () => logCount,
    stop: () => (stopping ??= stopChild(child)),
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return
  child.kill('SIGTERM')
  if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
    child.kill('SIGKILL')
    await waitForExit(child, 5_000)
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

export function startHelloServer(): Promise<RunningServer<{ baseUrl: string }>> {
  return startNodeChild({
    name: 'bare node',
    script: HELLO_SERVER,
    args: [],
    parse: (value) => (isRecord(value) && typeof value.baseUrl === 'string' ? { baseUrl: value.baseUrl } : undefined),
  })
}

/**
 * `till serve --sandbox` on its embedded PostgreSQL, or on an external one when `databaseUrl` is given. The payment
 * TTL is an hour so that no payment expires mid-run and turns a status read into an expiry write.
 */
export function startTill(input: {
  name: string
  databaseUrl?: string
  nodeFlags?: readonly string[]
  statusCache?: boolean
  /** A second server on the same database must keep the first one's sandbox key, not replace it. */
  sandboxApiKey?: string
}) {
  const args = ['serve', '--sandbox', '--port', '0', '--host', '127.0.0.1', '--json', '--log-level', 'warn']
  args.push('--payment-ttl', '3600')
  if (input.statusCache === false) args.push('--status-cache-size', '0')
  if (input.sandboxApiKey) args.push('--sandbox-api-key', input.sandboxApiKey)
  if (input.databaseUrl) args.push('--database-url', input.databaseUrl)
  return startNodeChild<TillReady>({
    name: input.name,
    script: TILL_BIN,
    args,
    ...(input.nodeFlags ? { nodeFlags: input.nodeFlags } : {}),
    parse: (value) => SandboxReadyLine.safeParse(value).data,
  })
}

/** SIGKILLs every child still running. Synchronous, so it works from an 'exit' handler too. */
export function killAllNow() {
  for (const child of live) {
    if (!exited(child)) child.kill('SIGKILL')
  }
  live.clear()
}
