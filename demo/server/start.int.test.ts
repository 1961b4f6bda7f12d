// `npm start` stopped as a supervisor or a script stops it: one signal to the top process, npm's or the start
// script's, ends the whole stack (the start script, the demo server, Till, its PostgreSQL) with nothing left
// running, and the demo says it stopped. How fast is measured by pnpm bench (bench/startup.ts), not here.
// Linux: the process tree is read from /proc.
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url))
// Installing and building are done when this runs (npm test does both first); starting is the stack's own time.
const STARTED_WITHIN_MS = 90_000
// How long the test waits for the stack to be gone: a liveness bound for a loaded CI machine, not the
// measure. The stop itself takes about a second here; pnpm bench measures it against its 5 s goal.
const STOPPED_WITHIN_MS = 30_000

const dir = mkdtempSync(path.join(tmpdir(), 'till-npm-start-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  }
}

/** Every process below `root`, as /proc shows them now. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    const parent = Number.isInteger(pid) ? parentOf(pid) : undefined
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid])
  }
  const found: number[] = []
  const queue = [root]
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of children.get(pid) ?? []) {
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

const alive = (pid: number) => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')

/** `npm start` on ports the kernel picks, as a user runs it; resolves once the stack wrote its state file. */
async function npmStart(name: string) {
  const stateFile = path.join(dir, `${name}.json`)
  const npm: ChildProcess = spawn(
    'npm',
    ['start', '--', '--port', '0', '--till-port', '0', '--checkout-port', '0', '--state-file', stateFile],
    {
      cwd: REPO_ROOT,
      // As on a developer's machine: CI=true would make the start script reinstall the dependencies.
      env: { ...process.env, CI: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  npm.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  npm.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()))
  await vi.waitFor(
    () => {
      if (npm.exitCode !== null) throw new Error(`npm start exited early:\n${output}`)
      expect(existsSync(stateFile)).toBe(true)
    },
    { timeout: STARTED_WITHIN_MS, interval: 100 },
  )
  return { npm, exited, stateFile, output: () => output }
}

/** The start script's own process: npm's child (with `exec`, no shell in between). */
function startScriptOf(npmPid: number): number {
  const script = descendants(npmPid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('scripts/start.mjs'))
  if (script === undefined) throw new Error('the start script is not running under npm')
  return script
}

describe('npm start, stopped by a signal to its top process', () => {
  it.each([
    { signal: 'SIGINT', to: 'npm' },
    { signal: 'SIGTERM', to: 'npm' },
    { signal: 'SIGTERM', to: 'the start script' },
  ] as const)(
    '$signal to $to stops every process of the stack, and it says so',
    async ({ signal, to }) => {
      const started = await npmStart(`${signal}-${to.replaceAll(' ', '-')}`)
      const npmPid = started.npm.pid ?? 0
      const stack = descendants(npmPid)
      // The stack is there to stop: the start script, the demo server, Till, and PostgreSQL's processes.
      const commands = stack.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
      expect(commands.some((command) => command.includes('bin/till.mjs'))).toBe(true)
      expect(commands.some((command) => command.includes('postgres'))).toBe(true)

      try {
        process.kill(to === 'npm' ? npmPid : startScriptOf(npmPid), signal)
        await vi.waitFor(() => expect([npmPid, ...stack].filter(alive)).toEqual([]), { timeout: STOPPED_WITHIN_MS, interval: 50 })
      } finally {
        // A failure must not leave a stack running for the next test.
        for (const pid of [...descendants(npmPid), ...stack].filter(alive)) process.kill(pid, 'SIGKILL')
      }
      await started.exited
      expect(started.output()).toContain('Stopped')
      expect(existsSync(started.stateFile)).toBe(false)
    },
    STARTED_WITHIN_MS + 30_000,
  )
})
