import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { setTimeout as delay } from 'node:timers/promises'

/** True while `pid` runs. A zombie counts as gone: it serves nothing and holds no files. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true // no /proc (macOS): kill(0) has answered
  }
}

/** The command line of `pid`, or undefined when it is gone or cannot be read. */
export function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    try {
      return execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' }).trim() || undefined
    } catch {
      return undefined
    }
  }
}

const STEPS: ReadonlyArray<[NodeJS.Signals, number]> = [
  // PostgreSQL's fast shutdown, then its immediate one, then no more asking.
  ['SIGINT', 5_000],
  ['SIGQUIT', 3_000],
  ['SIGKILL', 2_000],
]

/** Stops a PostgreSQL postmaster that Till no longer supervises, escalating until it is gone. */
export async function stopPostmaster(pid: number): Promise<void> {
  for (const [signal, waitMs] of STEPS) {
    try {
      process.kill(pid, signal)
    } catch {
      return
    }
    for (let waited = 0; waited < waitMs && isAlive(pid); waited += 50) await delay(50)
    if (!isAlive(pid)) return
  }
  throw new Error(`PostgreSQL (pid ${pid}) did not stop`)
}
