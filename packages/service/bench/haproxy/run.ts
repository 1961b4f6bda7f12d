// The load-balancer bench (`pnpm bench`, last): create throughput through HAProxy in front of three
// `till serve` instances on one durable PostgreSQL (the configuration docs/operations.md gives), against one
// of those instances reached directly, in the same run. The ratio is what the proxy and the extra instances
// cost or bring on this machine; on 2 cores, three instances and HAProxy share what one instance had.
//
// Knobs: BENCH_DURATION (seconds per measurement, 5), BENCH_CONNECTIONS (32). Exit code: 0 when it ran (a
// benchmark reports, it does not assert) or when HAProxy cannot be had here (it says why); 1 when it could
// not measure (a server did not start, a request failed).
import { documentedConfig, freePort, haproxyBinary, startHaproxy } from '../../test/haproxy.ts'
import { createTarget, type LoadSettings, type Measurement, measure } from '../load.ts'
import { startBenchCluster } from '../postgres.ts'
import { killAllNow, startTill } from '../servers.ts'

const log = (line: string) => console.log(`[bench haproxy] ${line}`)
const INSTANCES = 3

function setting(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback)
  return Number.isInteger(value) && value > 0 ? value : fallback
}

const failed = (result: Measurement) => result.non2xx + result.errors + result.timeouts

async function main(): Promise<number> {
  const binary = haproxyBinary()
  if (!('path' in binary)) {
    log(`skipped: ${binary.missing}`)
    return 0
  }
  const settings: LoadSettings = {
    connections: setting('BENCH_CONNECTIONS', 32),
    durationSeconds: setting('BENCH_DURATION', 5),
    warmupSeconds: 1,
  }
  const stops: Array<() => Promise<void>> = []
  try {
    const cluster = await startBenchCluster((line) => log(`postgres: ${line}`))
    stops.push(() => cluster.stop())
    const first = await startTill({ name: 'till 1', databaseUrl: cluster.url })
    stops.push(first.stop)
    const instances = [first]
    for (let index = 2; index <= INSTANCES; index++) {
      const till = await startTill({ name: `till ${index}`, databaseUrl: cluster.url, sandboxApiKey: first.ready.apiKey })
      stops.push(till.stop)
      instances.push(till)
    }
    const port = await freePort()
    const ports = instances.map((till) => Number(new URL(till.ready.baseUrl).port))
    const proxy = await startHaproxy(binary.path, documentedConfig(port, ports), port)
    stops.push(proxy.stop)

    // The direct run first, then through the proxy: the database holds as many rows at the start of each.
    const direct = (await measure(createTarget(first.ready), settings)).result
    const proxied = (await measure(createTarget({ ...first.ready, baseUrl: proxy.url }), settings)).result
    if (failed(direct) + failed(proxied) > 0) {
      log(`requests failed: directly ${JSON.stringify(direct.statusCodes)}, through HAProxy ${JSON.stringify(proxied.statusCodes)}`)
      return 1
    }
    log(`${settings.connections} connections, ${settings.durationSeconds} s each, creates on a durable PostgreSQL of the embedded binaries`)
    const row = (label: string, value: string) => log(`${label.padEnd(40)} ${value}`)
    row('creates/s, one instance directly', `${Math.round(direct.okPerSecond)} (p99 ${direct.p99.toFixed(1)} ms)`)
    row(`creates/s, HAProxy to ${INSTANCES} instances`, `${Math.round(proxied.okPerSecond)} (p99 ${proxied.p99.toFixed(1)} ms)`)
    row('ratio, through HAProxy / directly', (proxied.okPerSecond / direct.okPerSecond).toFixed(2))
    return 0
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
    killAllNow()
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(`[bench haproxy] could not run: ${error instanceof Error ? error.message : String(error)}`)
  return 1
})
