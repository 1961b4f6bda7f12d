// Where the CPU went during a measurement: the server's process, PostgreSQL's processes and the load
// generator (this process). On two cores they compete, so the split explains a throughput figure better
// than the figure alone. Linux only (/proc); elsewhere the split is simply not shown.
import { readFileSync } from 'node:fs'
import { processTree, readStat } from './processes.ts'

export type CpuComponent = 'server' | 'postgres' | 'load generator' | 'machine'

/** Cumulative CPU milliseconds so far, per component; a probe is read before and after a run. */
export type CpuProbe = () => Partial<Record<CpuComponent, number>>

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
    // USER_HZ, the unit of /proc's CPU times, is 100 on every Linux architecture.
    return idle === undefined || iowait === undefined ? undefined : (busy * 1000) / 100
  } catch {
    return undefined
  }
}

/** CPU of `root` and every process below it (PostgreSQL runs one process per connection). */
function treeCpuMs(root: number): number | undefined {
  const tree = processTree(root)
  if (tree.size === 0) return undefined
  let total = 0
  for (const stat of tree.values()) total += stat.cpuMs
  return total
}

export function cpuProbe(pids: { server: number; postgres?: number | undefined }): CpuProbe | undefined {
  if (readStat(process.pid) === undefined) return undefined // no /proc here
  return () => {
    const usage = process.cpuUsage()
    const sample: Partial<Record<CpuComponent, number>> = { 'load generator': (usage.user + usage.system) / 1000 }
    const server = treeCpuMs(pids.server)
    const postgres = pids.postgres === undefined ? undefined : treeCpuMs(pids.postgres)
    if (postgres !== undefined) sample.postgres = postgres
    // The embedded server runs below till serve: its CPU is PostgreSQL's, not the service's.
    const embedded = pids.postgres !== undefined && processTree(pids.server).has(pids.postgres)
    if (server !== undefined) sample.server = embedded ? server - (postgres ?? 0) : server
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
