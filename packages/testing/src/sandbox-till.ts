import { type ChildProcessByStdio, spawn } from 'node:child_process'
import type { Readable } from 'node:stream'
import { TillClient } from '@till/client'
import { SandboxReadyLine } from '@till/contract'

export interface StartSandboxTillOptions {
  /**
   * The `till` program and its first arguments. Default: the `TILL_COMMAND` environment variable (a JSON
   * array, or a path), else `['till']` from PATH.
   */
  command?: readonly string[]
  /** More `till serve` flags, after `--sandbox --sandbox-hold-confirmations --json --port 0`. */
  args?: readonly string[]
  cwd?: string
  /** Variables added to the environment (the caller's `DATABASE_URL` and `TILL_*` are not passed on). */
  env?: Record<string, string>
  /** How long to wait for the ready line; 60 s by default. */
  readyTimeoutMs?: number
  /** The service's log lines (warnings and errors; its stderr) as they come. */
  onStderr?: (chunk: string) => void
}

/** A sandbox Till: its address, the sandbox merchant's credentials, and a client bound to them. */
export interface SandboxTill extends SandboxReadyLine {
  /** A `@till/client` client with the sandbox key and merchant: `client.sandbox.confirm(id)` and the rest. */
  client: TillClient
  /** Stops the service (if this kit started it) and closes the client. */
  stop(): Promise<void>
}

const STOP_GRACE_MS = 5_000

function defaultCommand(): readonly string[] {
  const fromEnv = process.env.TILL_COMMAND?.trim()
  if (!fromEnv) return ['till']
  if (!fromEnv.startsWith('[')) return [fromEnv]
  const parsed: unknown = JSON.parse(fromEnv)
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((part) => typeof part === 'string')) {
    throw new TypeError('TILL_COMMAND must be a path or a JSON array of strings, e.g. ["node", "/srv/till/bin/till.mjs"]')
  }
  return parsed
}

/** The command line alone configures the service: no database, port or key from the caller's environment. */
function serviceEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (name !== 'DATABASE_URL' && !name.startsWith('TILL_')) env[name] = value
  return { ...env, ...extra }
}

/** A client for a sandbox Till that runs already (started by hand, or by another process). */
export function connectSandboxTill(ready: SandboxReadyLine, stopService: () => Promise<void> = async () => {}): SandboxTill {
  const line = SandboxReadyLine.parse(ready)
  const client = new TillClient({ baseUrl: line.baseUrl, apiKey: line.apiKey, merchantId: line.merchantId, payVersion: line.version })
  return {
    ...line,
    client,
    async stop() {
      await client.close()
      await stopService()
    },
  }
}

/**
 * Starts `till serve` in sandbox mode, with the slow test wallet's confirmations held until
 * `client.sandbox.confirm(id)`, on a port the kernel picks, and resolves once it is ready. The service keeps
 * its data in a temporary database removed when it stops.
 */
export async function startSandboxTill(options: StartSandboxTillOptions = {}): Promise<SandboxTill> {
  const [program, ...first] = options.command ?? defaultCommand()
  if (!program) throw new TypeError('startSandboxTill: command must name a program')
  const args = [...first, 'serve', '--sandbox', '--sandbox-hold-confirmations', '--json', '--port', '0', ...(options.args ?? [])]
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(program, args, {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: serviceEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000)
    options.onStderr?.(chunk)
  })
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const gone = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
    await gone
    clearTimeout(force)
  }
  try {
    const line = await readyLine(child, options.readyTimeoutMs ?? 60_000, () => stderr)
    child.stdout.resume()
    return connectSandboxTill(line, stop)
  } catch (error) {
    await stop()
    throw new Error(`\`${[program, ...args].join(' ')}\` did not start: ${(error as Error).message}${stderr ? `\n${stderr}` : ''}`)
  }
}

function readyLine(
  child: ChildProcessByStdio<null, Readable, Readable>,
  timeoutMs: number,
  stderr: () => string,
): Promise<SandboxReadyLine> {
  return new Promise((resolve, reject) => {
    let stdout = ''
    const timer = setTimeout(() => reject(new Error(`no ready line within ${timeoutMs / 1000} s`)), timeoutMs)
    const done = () => clearTimeout(timer)
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk
      const end = stdout.indexOf('\n')
      if (end === -1) return
      done()
      try {
        resolve(SandboxReadyLine.parse(JSON.parse(stdout.slice(0, end))))
      } catch (error) {
        reject(new Error(`its first line is not a sandbox ready line: ${(error as Error).message}`))
      }
    })
    child.once('error', (error) => {
      done()
      reject(error)
    })
    child.once('exit', (code, signal) => {
      done()
      setImmediate(() => reject(new Error(`it exited (${signal ?? `code ${code}`}) ${stderr() ? '' : 'without a word'}`)))
    })
  })
}
