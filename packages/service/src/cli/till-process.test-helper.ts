import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TillReadyLine } from '@till/contract'
import { afterAll, beforeAll } from 'vitest'

const TILL = fileURLToPath(new URL('../../bin/till.mjs', import.meta.url))

export type Finished = { code: number | null; stdout: string; stderr: string }

/** Runs `till …` to completion. */
export async function runTill(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  const child = spawn(process.execPath, [TILL, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, stderr }
}

export type RunningTill = {
  pid: number
  ready: TillReadyLine
  stderr: () => string
  stdout: () => string
  /** Sends `signal` (SIGTERM) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
  /** Sends `signal` and returns at once: a crash, as an operator's kill -9 makes one. */
  kill(signal: NodeJS.Signals): void
  /** Resolves with the exit code once the process has ended by itself. */
  exited(): Promise<number | null>
}

/** Starts `till serve …` and resolves with its one JSON line, once it is ready. */
export async function startTill(
  args: string[],
  env: Record<string, string> = {},
  user: { uid: number; gid: number } | Record<string, never> = {},
): Promise<RunningTill> {
  const child: ChildProcess = spawn(process.execPath, [TILL, 'serve', '--json', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  })
  let stdout = ''
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = once(child, 'exit') as Promise<[number | null]>
  const ready = await new Promise<TillReadyLine>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split('\n')[0]
      if (!stdout.includes('\n') || !line) return
      try {
        resolve(TillReadyLine.parse(JSON.parse(line)))
      } catch (error) {
        reject(new Error(`till serve printed an unexpected ready line: ${line}`, { cause: error }))
      }
    })
    void exited.then(([code]) => reject(new Error(`till serve exited with ${code}: ${stderr}`)))
  })
  return {
    pid: child.pid ?? -1,
    ready,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop(signal = 'SIGTERM') {
      child.kill(signal)
      const [code] = await exited
      return code
    },
    kill: (signal) => child.kill(signal),
    exited: async () => (await exited)[0],
  }
}

export type ServedTill = RunningTill & { gone: () => boolean }

/**
 * `till serve --sandbox` processes for one test file, in a directory of their own that PostgreSQL (run as
 * the postgres user under root) can pass through, each trusting `ca` as a merchant's endpoint would be
 * trusted in production (NODE_EXTRA_CA_CERTS); all are killed and the directory removed after the file.
 */
export function useTillProcesses(options: { prefix: string; ca: () => string }) {
  let root = ''
  let caFile = ''
  const running: RunningTill[] = []
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), options.prefix))
    await chmod(root, 0o711)
    caFile = join(root, 'ca.pem')
    await writeFile(caFile, options.ca())
  })
  afterAll(async () => {
    for (const till of running) till.kill('SIGKILL')
    await Promise.all(running.map((till) => till.exited()))
    // A killed Till's embedded PostgreSQL stops a moment after it, and may still be writing its files.
    await rm(root, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 })
  })
  async function serve(args: string[]): Promise<ServedTill> {
    const till = await startTill(['--sandbox', ...args], { NODE_EXTRA_CA_CERTS: caFile })
    running.push(till)
    let gone = false
    void till.exited().then(() => (gone = true))
    return Object.assign(till, { gone: () => gone })
  }
  return {
    root: () => root,
    serve,
    /** `count` instances on one database (`args` name it): the first issues the sandbox key, the others keep it. */
    async serveSharing(count: number, args: string[]): Promise<ServedTill[]> {
      const first = await serve(args)
      const others: ServedTill[] = []
      for (let index = 1; index < count; index++) others.push(await serve([...args, '--sandbox-api-key', String(first.ready.apiKey)]))
      return [first, ...others]
    },
  }
}
