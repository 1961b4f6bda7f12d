// The processes below a server and what they hold: `till serve` runs its PostgreSQL server as a child,
// so its CPU and memory are the whole tree's. Linux only (/proc).
import { readdirSync, readFileSync } from 'node:fs'

type Stat = { ppid: number; cpuMs: number; command: string }

/** USER_HZ: the unit of utime and stime in /proc/PID/stat, 100 on every Linux architecture. */
const TICKS_PER_SECOND = 100

export function readStat(pid: number): Stat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name may contain spaces and parentheses; the fields after the last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12]) // utime + stime
    return {
      ppid: Number(fields[1]),
      cpuMs: (ticks * 1000) / TICKS_PER_SECOND,
      command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    }
  } catch {
    return undefined
  }
}

/** `root` and every process below it, with their stats. */
export function processTree(root: number): Map<number, Stat> {
  const tree = new Map<number, Stat>()
  const rootStat = readStat(root)
  if (!rootStat) return tree
  const children = new Map<number, number[]>()
  const stats = new Map<number, Stat>()
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === root) continue
    const stat = readStat(pid)
    if (!stat) continue
    stats.set(pid, stat)
    children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), pid])
  }
  tree.set(root, rootStat)
  const queue = [root]
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    for (const child of children.get(pid) ?? []) {
      tree.set(child, stats.get(child)!)
      queue.push(child)
    }
  }
  return tree
}

/** The postmaster below `root`: the first process named postgres whose parent is not one. */
export function postmasterBelow(root: number): number | undefined {
  const tree = processTree(root)
  for (const [pid, stat] of tree) {
    if (stat.command === 'postgres' && tree.get(stat.ppid)?.command !== 'postgres') return pid
  }
  return undefined
}

function statusField(pid: number, file: 'status' | 'smaps_rollup', field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'))
    return match ? Number(match[1]) * 1024 : 0
  } catch {
    return 0
  }
}

/**
 * Memory of a process tree. RSS adds up what each process has resident, so PostgreSQL's shared buffers
 * count once per process that touched them; PSS splits shared pages between their users, so its sum is
 * what the tree really occupies.
 */
export function treeMemory(root: number): { rssBytes: number; pssBytes: number; processes: number } {
  const pids = [...processTree(root).keys()]
  return {
    rssBytes: pids.reduce((sum, pid) => sum + statusField(pid, 'status', 'VmRSS'), 0),
    pssBytes: pids.reduce((sum, pid) => sum + statusField(pid, 'smaps_rollup', 'Pss'), 0),
    processes: pids.length,
  }
}
