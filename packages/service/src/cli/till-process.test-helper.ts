import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { TillReadyLine } from '@till/contract'

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
