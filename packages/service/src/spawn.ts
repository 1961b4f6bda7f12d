// Runs `till serve --json` as a child process and waits for the one line it prints once it listens. The e2e
// suite and the demo stack start the real service this way, exactly as an operator would.
import { spawn, type ChildProcessByStdio } from 'node:child_process'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { SandboxReadyLine } from '@till/contract'
import { z } from 'zod'

/** The `till` program of this checkout, e.g. for `@till/testing`'s `command: [process.execPath, TILL_BIN]`. */
export const TILL_BIN = fileURLToPath(new URL('../bin/till.mjs', import.meta.url))
const STOP_GRACE_MS = 5_000
const STDERR_TAIL_CHARS = 20_000

/** What `till serve --sandbox --json` prints once ready; every launcher here goes on to use the credentials. */
export type TillReady = SandboxReadyLine

export interface SpawnedTill {
  ready: TillReady
  /** Throws with the service's stderr if it has exited; call before relying on it. */
  assertRunning(): void
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
  stop(): Promise<void>
}

export interface SpawnTillOptions {
  /** `till serve` flags after `serve`, e.g. ['--sandbox', '--port', '0']; `--json` is added, `--sandbox` is needed. */
  args: readonly string[]
  cwd?: string
  /** Passes the service's stderr on as it arrives (after start-up), e.g. to a test's output. */
  onStderr?: (chunk: string) => void
  readyTimeoutMs?: number
  /** More environment for the service, e.g. NODE_EXTRA_CA_CERTS so it trusts a local HTTPS logo host. */
  env?: Record<string, string>
}

type TillProcess = ChildProcessByStdio<null, Readable, Readable>

export async function spawnTill(options: SpawnTillOptions): Promise<SpawnedTill> {
  const args = [TILL_BIN, 'serve', ...options.args, '--json']
  const child: TillProcess = spawn(process.execPath, args, {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: { ...serviceEnv(), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderrTail = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS)
  })
  const command = `till ${args.slice(1).join(' ')}`
  const explain = (what: string): string =>
    `\`${command}\` ${what}${stderrTail.trim() ? `; its stderr:\n${stderrTail.trimEnd()}` : '; it wrote nothing on stderr'}`
  const exited = (): boolean => child.exitCode !== null || child.signalCode !== null

  // A parent that dies without stopping the service must not leave it behind.
  const killOnExit = (): void => {
    child.kill('SIGKILL')
  }
  process.once('exit', killOnExit)
  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit)
    if (exited()) return
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
    child.kill('SIGTERM')
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
    await gone
    clearTimeout(force)
  }

  let ready: TillReady
  try {
    ready = await readyLine(child, explain, options.readyTimeoutMs ?? 60_000)
  } catch (error) {
    await stop()
    throw error
  }
  if (options.onStderr) child.stderr.on('data', options.onStderr)
  child.stdout.resume()
  return {
    ready,
    assertRunning() {
      if (exited()) throw new Error(explain(`exited (${child.signalCode ?? `code ${child.exitCode}`})`))
    },
    stop,
  }
}

/** The command line alone configures the service: no database, port or key from the caller's environment. */
function serviceEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (name === 'DATABASE_URL' || name.startsWith('TILL_')) continue
    env[name] = value
  }
  return env
}

function readyLine(child: TillProcess, explain: (what: string) => string, timeoutMs: number): Promise<TillReady> {
  return new Promise<TillReady>((resolve, reject) => {
    let stdout = ''
    const finish = (outcome: { line: TillReady } | { error: Error }): void => {
      clearTimeout(timer)
      child.stdout.off('data', onData)
      child.off('exit', onExit)
      child.off('error', onError)
      if ('line' in outcome) resolve(outcome.line)
      else reject(outcome.error)
    }
    const onData = (chunk: string): void => {
      stdout += chunk
      const end = stdout.indexOf('\n')
      if (end === -1) return
      const line = stdout.slice(0, end)
      const parsed = parseReadyLine(line)
      finish(
        'problem' in parsed
          ? { error: new Error(explain(`printed an unexpected first line (${parsed.problem}): ${line}`)) }
          : { line: parsed.line },
      )
    }
    // 'exit' can come before the last stderr chunk; a moment later the tail is complete.
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      const how = signal ?? `code ${code}`
      setImmediate(() => finish({ error: new Error(explain(`exited (${how}) before printing its ready line`)) }))
    }
    const onError = (error: Error): void => finish({ error: new Error(explain(`could not start: ${error.message}`)) })
    const timer = setTimeout(() => finish({ error: new Error(explain(`printed no ready line within ${timeoutMs / 1000} s`)) }), timeoutMs)
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', onData)
    child.once('exit', onExit)
    child.once('error', onError)
  })
}

function parseReadyLine(line: string): { line: TillReady } | { problem: string } {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return { problem: 'not JSON' }
  }
  const parsed = SandboxReadyLine.safeParse(value)
  return parsed.success ? { line: parsed.data } : { problem: z.prettifyError(parsed.error).replaceAll('\n', '; ') }
}
