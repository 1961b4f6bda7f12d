// `pnpm bench`, first part: how long `till serve --sandbox` takes to be ready (spawn to its --json line,
// its embedded PostgreSQL included) and how much memory it holds once ready, and the same memory figure
// for the whole `npm start` demo stack. Memory is the process tree's: till, its supervisor and every
// PostgreSQL process (RSS summed, as the goal is stated, and PSS, which counts shared pages once).
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { processTree, readStat, treeMemory } from './processes.ts'
import { killAllNow, startTill } from './servers.ts'

// Issue 21: ready within a second, and 200 MB for Till and its PostgreSQL together.
const GOALS = { readyMs: 1_000, tillMB: 200, stackMB: 500, stackStopMs: 5_000 }
const RUNS = 5
// Once ready, the service builds nothing more; a moment lets the sandbox seed and first sweeps settle.
const SETTLE_MS = 1_000
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url))

const mb = (bytes: number) => bytes / 2 ** 20
const mark = (ok: boolean) => (ok ? '✓' : '✗')
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
const log = (line: string) => console.log(`[bench] ${line}`)

async function tillServe() {
  const readyMs: number[] = []
  const rss: number[] = []
  const pss: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    const till = await startTill({ name: `till serve --sandbox #${run + 1}` })
    readyMs.push(performance.now() - started)
    await delay(SETTLE_MS)
    const memory = treeMemory(till.pid)
    rss.push(mb(memory.rssBytes))
    pss.push(mb(memory.pssBytes))
    await till.stop()
  }
  return { readyMs, rss, pss }
}

/** Whether a process is still there (and not a zombie waiting to be reaped). */
const running = (pid: number) => readStat(pid) !== undefined && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')

type StackFigures = { rss: number; pss: number; processes: number; readyMs: number; stopMs: number }

/**
 * `npm start` as a user runs it, on ports the kernel picks: ready once it writes its state file (builds are
 * already done: pnpm bench builds first, so this is the idle start), then stopped with SIGTERM, as a
 * supervisor stops it, until no process of it is left.
 */
async function demoStack(): Promise<StackFigures | string> {
  const dir = await mkdtemp(join(tmpdir(), 'till-bench-stack-'))
  const stateFile = join(dir, 'state.json')
  const started = performance.now()
  const child = spawn(
    process.execPath,
    ['scripts/start.mjs', '--port', '0', '--till-port', '0', '--checkout-port', '0', '--state-file', stateFile],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const gone = new Promise((resolve) => child.once('exit', resolve))
  try {
    const deadline = Date.now() + 180_000
    while (!existsSync(stateFile)) {
      if (child.exitCode !== null) return `npm start exited (${child.exitCode}) before it was ready`
      if (Date.now() > deadline) return 'npm start was not ready within 180 s'
      await delay(20)
    }
    const readyMs = performance.now() - started
    await delay(SETTLE_MS)
    const memory = treeMemory(child.pid!)
    const stack = [...processTree(child.pid!).keys()]
    const stopping = performance.now()
    child.kill('SIGTERM')
    await gone
    while (stack.some(running)) await delay(10)
    const stopMs = performance.now() - stopping
    return { rss: mb(memory.rssBytes), pss: mb(memory.pssBytes), processes: memory.processes, readyMs, stopMs }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await gone
    await rm(dir, { recursive: true, force: true })
  }
}

async function main(): Promise<number> {
  log(`starting till serve --sandbox ${RUNS} times, one after another`)
  const till = await tillServe()
  log('starting the npm start demo stack (it builds the shop first)')
  const stack = await demoStack()

  const ready = median(till.readyMs)
  const rss = median(till.rss)
  const lines = [
    '',
    'start-up and memory (median of 5 starts; memory of the whole process tree, 1 s after ready)',
    `  till serve --sandbox ready       ${ready.toFixed(0).padStart(6)} ms   goal ≤ ${GOALS.readyMs} ms   ${mark(ready <= GOALS.readyMs)}   (all: ${till.readyMs.map((ms) => ms.toFixed(0)).join(', ')} ms)`,
    `  till serve --sandbox memory      ${rss.toFixed(0).padStart(6)} MB   goal ≤ ${GOALS.tillMB} MB    ${mark(rss <= GOALS.tillMB)}   RSS summed; PSS ${median(till.pss).toFixed(0)} MB`,
  ]
  if (typeof stack === 'string') lines.push(`  npm start stack memory           not measured: ${stack}`)
  else {
    lines.push(
      `  npm start stack memory           ${stack.rss.toFixed(0).padStart(6)} MB   goal ≤ ${GOALS.stackMB} MB    ${mark(stack.rss <= GOALS.stackMB)}   RSS summed over ${stack.processes} processes; PSS ${stack.pss.toFixed(0)} MB`,
      `  npm start ready (built)          ${stack.readyMs.toFixed(0).padStart(6)} ms   spawn to its state file, nothing to build`,
      `  npm start stopped by SIGTERM     ${stack.stopMs.toFixed(0).padStart(6)} ms   goal ≤ ${GOALS.stackStopMs} ms  ${mark(stack.stopMs <= GOALS.stackStopMs)}   until no process of it is left`,
    )
  }
  console.log(lines.join('\n'))
  console.log('')
  return typeof stack === 'string' ? 1 : 0
}

process.once('exit', killAllNow)
process.exitCode = await main()
