// Where the CPU went during a measurement: the server's process, PostgreSQL's processes and the load
// generator (this process). On two cores they compete, so the split explains a throughput figure better
// than the figure alone. Linux only (/proc); elsewhere the split is simply not shown.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/** USER_HZ: the unit of utime and stime in /proc/PID/stat, 100 on every Linux architecture. */
const TICKS_PER_SECOND = 100

export type CpuComponent = 'server' | 'postgres' | 'load generator' | 'machine'

/** Cumulative CPU milliseconds so far, per component; a probe is read before and after a run. */
export type CpuProbe = () => Partial<Record<CpuComponent, number>>

type Stat = { ppid: number; cpuMs: number }

function readStat(pid: number): Stat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name may contain spaces and parentheses; the fields after the last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12]) // utime + stime
    return { ppid: Number(fields[1]), cpuMs: (ticks * 1000) / TICKS_PER_SECOND }
  } catch {
    return undefined
  }
}

/**
 * Busy CPU of the whole machine: everything but idle and iowait in /proc/stat. It includes what no
 * process is charged for, such as the kernel's softirq work for loopback TCP, so it shows whether the
 * machine was saturated even when no single process was.
 */
export function machineCpuMs(): number | undefined {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number)
    const busy = [user, nice, system, irq, softirq, steal].reduce<number>((sum, value) => sum + (value ?? 0), 0)
    return idle === undefined || iowait === undefined ? undefined : (busy * 1000) / TICKS_PER_SECOND
  } catch {
    return undefined
  }
}

/** CPU of `root` and every process below it (PostgreSQL runs one process per connection). */
function treeCpuMs(root: number): number | undefined {
  const rootStat = readStat(root)
  if (!rootStat) return undefined
  const children = new Map<number, number[]>()
  const stats = new Map<number, Stat>([[root, rootStat]])
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === root) continue
    const stat = readStat(pid)
    if (!stat) continue
    stats.set(pid, stat)
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid])
  }
  let total = 0
  const queue = [root]
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    total += stats.get(pid)?.cpuMs ?? 0
    queue.push(...(children.get(pid) ?? []))
  }
  return total
}

/** The postmaster's pid is the first line of postmaster.pid in the data directory. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch {
    return undefined
  }
}

export function cpuProbe(pids: { server: number; postgres?: number | undefined }): CpuProbe | undefined {
  if (readStat(process.pid) === undefined) return undefined // no /proc here
  return () => {
    const usage = process.cpuUsage()
    const sample: Partial<Record<CpuComponent, number>> = { 'load generator': (usage.user + usage.system) / 1000 }
    const server = treeCpuMs(pids.server)
    if (server !== undefined) sample.server = server
    const postgres = pids.postgres === undefined ? undefined : treeCpuMs(pids.postgres)
    if (postgres !== undefined) sample.postgres = postgres
    const machine = machineCpuMs()
    if (machine !== undefined) sample.machine = machine
    return sample
  }
}

/** CPU milliseconds spent per component between two probe readings. */
export function cpuDelta(
  before: Partial<Record<CpuComponent, number>>,
  after: Partial<Record<CpuComponent, number>>,
): Partial<Record<CpuComponent, number>> {
  const delta: Partial<Record<CpuComponent, number>> = {}
  for (const component of ['server', 'postgres', 'load generator', 'machine'] as const) {
    const start = before[component]
    const end = after[component]
    if (start !== undefined && end !== undefined) delta[component] = end - start
  }
  return delta
}

/**
 * Cores kept busy over `ms` while nothing of ours is under load: other programs on the machine
 * (a test suite, a build) take CPU from the benchmark, and the figures should say so.
 */
export async function backgroundCores(ms: number): Promise<number | undefined> {
  const before = machineCpuMs()
  await new Promise((resolve) => setTimeout(resolve, ms))
  const after = machineCpuMs()
  return before === undefined || after === undefined ? undefined : (after - before) / ms
}
