// Summarizes a V8 .cpuprofile (from `BENCH_CPU_PROF=DIR pnpm bench`, which runs the services with
// `node --cpu-prof`): where the busy time went, by area (package, node internals, Till's own code, GC)
// and by function, both self time and inclusive time. Idle time is left out of the percentages: the
// service is idle while the other scenarios run. Start-up (tsx compiling, PGlite's initdb, migrations)
// is left out too, unless --all: samples count from the first one inside node's HTTP server.
//
//   tsx bench/profile-summary.ts FILE.cpuprofile [TOP] [--all]
import { readFileSync } from 'node:fs'

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number }
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] }
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

function isProfile(value: unknown): value is Profile {
  return (
    typeof value === 'object' &&
    value !== null &&
    'nodes' in value &&
    Array.isArray(value.nodes) &&
    'samples' in value &&
    Array.isArray(value.samples) &&
    'timeDeltas' in value &&
    Array.isArray(value.timeDeltas)
  )
}

/** Which part of the program a frame belongs to: a package, node's internals, Till's code, or V8 itself. */
function areaOf(frame: CallFrame): string {
  const { url, functionName } = frame
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)'
  if (url.startsWith('node:')) return 'node internals'
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  const plain = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  const pkg = pnpm?.[1] ?? plain?.[1]
  if (pkg) return pkg
  const ours = /\/packages\/([^/]+)\//.exec(url)
  return ours ? `till ${ours[1]}` : url
}

function shortUrl(url: string): string {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\/\.pnpm\/[^/]+\/node_modules\//, '')
    .replace(/^.*\/packages\//, '')
}

function frameKey(frame: CallFrame): string {
  return `${frame.functionName || '(anonymous)'}  ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`
}

const IDLE = new Set(['(idle)', '(program)'])

function main() {
  const args = process.argv.slice(2)
  const all = args.includes('--all')
  const [file, topArg] = args.filter((arg) => arg !== '--all')
  if (!file) {
    console.error('usage: tsx bench/profile-summary.ts FILE.cpuprofile [TOP] [--all]')
    process.exitCode = 2
    return
  }
  const top = Number(topArg ?? 25)
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
  if (!isProfile(parsed)) throw new Error(`${file} is not a V8 CPU profile`)

  const byId = new Map<number, ProfileNode>()
  const parent = new Map<number, number>()
  for (const node of parsed.nodes) {
    byId.set(node.id, node)
    for (const child of node.children ?? []) parent.set(child, node.id)
  }

  const stackOf = function* (id: number) {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame
      if (frame && frame.functionName !== '(root)') yield frame
    }
  }
  const servesHttp = (id: number) => [...stackOf(id)].some((frame) => frame.url === 'node:_http_server')
  const firstRequest = all ? 0 : parsed.samples.findIndex(servesHttp)
  let skipped = 0

  const selfByArea = new Map<string, number>()
  const selfByFunction = new Map<string, number>()
  const totalByFunction = new Map<string, number>()
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us)
  let busy = 0
  let idle = 0

  parsed.samples.forEach((id, index) => {
    // timeDeltas[i] is the time before sample i; it is the best per-sample weight the format offers.
    const us = parsed.timeDeltas[index] ?? 0
    const node = byId.get(id)
    if (!node) return
    if (firstRequest < 0 || index < firstRequest) {
      skipped += us
      return
    }
    if (IDLE.has(node.callFrame.functionName)) {
      idle += us
      return
    }
    busy += us
    add(selfByArea, areaOf(node.callFrame), us)
    add(selfByFunction, frameKey(node.callFrame), us)
    // Inclusive: each function on the stack once, however often it recurses.
    const seen = new Set<string>()
    for (const frame of stackOf(id)) {
      const key = frameKey(frame)
      if (!seen.has(key)) {
        seen.add(key)
        add(totalByFunction, key, us)
      }
    }
  })

  const percent = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`
  const print = (title: string, map: Map<string, number>, count: number) => {
    console.log(`\n${title}`)
    for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`  ${percent(us)}  ${key}`)
  }
  const seconds = (us: number) => `${(us / 1e6).toFixed(1)} s`
  console.log(
    `${file}: ${seconds(busy)} busy, ${seconds(idle)} idle, ${seconds(skipped)} before the first request left out (start-up, idle); percentages are of busy time`,
  )
  print('Self time by area', selfByArea, 15)
  print('Self time by function', selfByFunction, top)
  print('Inclusive time by function', totalByFunction, top)
}

main()
