// `pnpm bench`: create-payment and status-read throughput and latency of `till serve` on its embedded
// PostgreSQL (the default) and on an external, durable PostgreSQL (--database-url), next to a bare Node
// `http` server measured in the same run.
//
// Knobs: BENCH_DURATION (seconds per measurement, 5), BENCH_CONNECTIONS (32), BENCH_ONLY
// (embedded | external; the bare server always runs, the ratios need it), BENCH_CPU_PROF (a directory:
// the services run with `node --cpu-prof` and leave their profiles there; see profile-summary.ts).
//
// Exit code: 0 when everything ran, goals met or not (a benchmark reports, it does not assert);
// 1 when it could not run (a server did not start, or any request failed); 2 for a bad knob (which
// pnpm passes on as 1).
import os from 'node:os'
import path from 'node:path'
import { backgroundCores, cpuProbe } from './cpu.ts'
import { createOnePayment, createTarget, helloTarget, measure, statusTarget, type LoadSettings } from './load.ts'
import { commandLineFacts, postgresFacts, startBenchCluster, type PostgresFacts } from './postgres.ts'
import { postmasterBelow } from './processes.ts'
import { cpuTable, failureLines, failures, goalLines, resultsTable, type Database, type Goal, type Row } from './report.ts'
import { killAllNow, silenceServerLogs, startHelloServer, startTill, type RunningServer, type TillReady } from './servers.ts'

// The issues' goals: the embedded default's are the later, stricter ones.
const READ_GOAL: Record<Database, Goal> = {
  embedded: { kind: 'ratio', atLeast: 0.5 },
  external: { kind: 'ratio', atLeast: 0.25 },
}
const CREATE_GOAL: Record<Database, Goal> = {
  embedded: { kind: 'rate', atLeast: 2_000 },
  external: { kind: 'rate', atLeast: 1_000 },
}
const WARMUP_SECONDS = 1
// More than this, measured while our servers idle, means something else is running on the machine.
const BUSY_MACHINE_CORES = 0.2

class UsageError extends Error {}

function positiveInteger(name: string, fallback: number, max: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new UsageError(`${name} must be an integer from 1 to ${max}, not "${raw}"`)
  return value
}

function databasesWanted(): Database[] {
  const only = process.env.BENCH_ONLY
  if (only === undefined || only === '') return ['embedded', 'external']
  if (only === 'embedded' || only === 'external') return [only]
  throw new UsageError(`BENCH_ONLY must be embedded or external, not "${only}"`)
}

const log = (line: string) => console.log(`[bench] ${line}`)

/** Everything to stop at the end, newest first: services before the cluster they talk to. */
const cleanups: Array<{ name: string; stop: () => Promise<void> }> = []
let cleaning: Promise<void> | undefined

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const { name, stop } of cleanups.reverse()) {
      await stop().catch((error: unknown) => console.error(`[bench] stopping ${name} failed: ${String(error)}`))
    }
  })()
  return cleaning
}

function onInterrupt(signal: NodeJS.Signals) {
  console.error(`\n[bench] ${signal}: stopping the servers and the database`)
  // A Ctrl-C reaches the servers and PostgreSQL too; what they log while going down is no news.
  silenceServerLogs()
  // A second signal, or a stop that hangs, still ends the run; the 'exit' hook kills what is left.
  setTimeout(() => process.exit(130), 20_000).unref()
  void cleanUp().finally(() => process.exit(130))
}

function remember<Ready>(server: RunningServer<Ready>): RunningServer<Ready> {
  cleanups.push({ name: server.name, stop: server.stop })
  return server
}

type PostgresSide = {
  till: RunningServer<TillReady>
  uncached: RunningServer<TillReady>
  facts: PostgresFacts
  postmaster: number | undefined
}

async function startPostgresSide(nodeFlags: readonly string[] | undefined): Promise<PostgresSide> {
  const cluster = await startBenchCluster((line) => log(`postgres: ${line}`))
  cleanups.push({ name: 'PostgreSQL cluster', stop: () => cluster.stop() })
  const facts = await postgresFacts(cluster.url)
  const flags = nodeFlags ? { nodeFlags } : {}
  const till = remember(await startTill({ name: 'till on external PostgreSQL', databaseUrl: cluster.url, ...flags }))
  const uncached = remember(
    await startTill({
      name: 'till on external PostgreSQL, no status cache',
      databaseUrl: cluster.url,
      statusCache: false,
      sandboxApiKey: till.ready.apiKey,
      ...flags,
    }),
  )
  return { till, uncached, facts, postmaster: cluster.postmaster }
}

/** The facts a reader needs to judge the figures: machine, load, database settings, how steady it was. */
function describeSetup(input: {
  settings: LoadSettings
  pgFacts: PostgresFacts | undefined
  embeddedFacts: PostgresFacts | undefined
  bareRate: number | undefined
  spread: number
  background: number | undefined
}): string[] {
  const { settings, pgFacts, embeddedFacts, bareRate, spread, background } = input
  const described = (facts: PostgresFacts) =>
    Object.entries(facts.settings)
      .map(([name, value]) => `${name}=${value}`)
      .join(', ')
  const cpus = os.cpus()
  return [
    `node ${process.version}, ${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}`,
    `load: autocannon in the bench process, ${settings.connections} connections, pipelining 1, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s per row, 127.0.0.1`,
    `servers: each in its own process; till serve --sandbox --log-level warn --payment-ttl 3600`,
    embeddedFacts
      ? `embedded: till serve's own PostgreSQL ${embeddedFacts.version} in a temporary directory (the default; data thrown away): ${described(embeddedFacts)}`
      : '',
    pgFacts ? `external: PostgreSQL ${pgFacts.version} started by the bench, --database-url, durable: ${described(pgFacts)}` : '',
    bareRate
      ? `baseline of the ratios: bare node's mean, ${Math.round(bareRate)} req/s (first and last differ by ${(100 * spread).toFixed(0)}%)`
      : '',
    background === undefined
      ? ''
      : `before the first measurement, with every server idle, ${background.toFixed(2)} of ${cpus.length} cores were busy with other work` +
        (background > BUSY_MACHINE_CORES ? '\n!! The machine was not quiet: the figures below are lower than this machine can do.' : ''),
  ].filter(Boolean)
}

async function main(): Promise<number> {
  const settings: LoadSettings = {
    connections: positiveInteger('BENCH_CONNECTIONS', 32, 1_000),
    durationSeconds: positiveInteger('BENCH_DURATION', 5, 600),
    warmupSeconds: WARMUP_SECONDS,
  }
  const databases = databasesWanted()
  const profileDir = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined
  const nodeFlags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : undefined
  const started = performance.now()

  // Start everything at once: start-up is not measured, and doing it in parallel keeps the run short.
  // Nothing is measured until all of it is up, so the start-ups do not steal CPU from a measurement.
  log(
    `starting bare node${databases.includes('embedded') ? ', till on its embedded PostgreSQL' : ''}${databases.includes('external') ? ', an external PostgreSQL and till on it' : ''}`,
  )
  const [helloStart, embeddedStart, postgresStart] = await Promise.allSettled([
    startHelloServer().then(remember),
    databases.includes('embedded')
      ? Promise.all([
          startTill({ name: 'till, embedded PostgreSQL', ...(nodeFlags ? { nodeFlags } : {}) }).then(remember),
          startTill({ name: 'till, embedded PostgreSQL, no status cache', statusCache: false, ...(nodeFlags ? { nodeFlags } : {}) }).then(
            remember,
          ),
        ])
      : Promise.resolve(undefined),
    databases.includes('external') ? startPostgresSide(nodeFlags) : Promise.resolve(undefined),
  ])
  const startErrors = [helloStart, embeddedStart, postgresStart].flatMap((outcome) =>
    outcome.status === 'rejected' ? [outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason)] : [],
  )
  for (const message of startErrors) console.error(`[bench] ${message}`)
  if (helloStart.status === 'rejected') return 1
  const startSeconds = ((performance.now() - started) / 1000).toFixed(1)
  log(startErrors.length === 0 ? `everything up after ${startSeconds} s` : `${startErrors.length} failed to start; measuring the rest`)
  const background = await backgroundCores(1_000)

  // The bare server is measured first and last: the mean is the baseline of the ratios, and the two
  // figures' spread shows how steady the machine was (a shared VM drifts).
  const hello = helloStart.value
  const measureBare = async (scenario: string) => {
    const bare = await measure(helloTarget(hello.ready.baseUrl), settings, cpuProbe({ server: hello.pid }))
    log(`${scenario}: ${Math.round(bare.result.okPerSecond)} req/s`)
    return { scenario, database: '-' as const, measurement: bare.result, warmup: bare.warmup }
  }
  const bareFirst = await measureBare('bare node, first')
  const rows: Row[] = []

  const postgresSide = postgresStart.status === 'fulfilled' ? postgresStart.value : undefined
  const embedded = embeddedStart.status === 'fulfilled' ? embeddedStart.value : undefined
  const embeddedPostmaster = embedded ? postmasterBelow(embedded[0].pid) : undefined
  const embeddedFacts = embeddedPostmaster ? commandLineFacts(embeddedPostmaster) : undefined
  const services: Array<{
    database: Database
    till: RunningServer<TillReady> | undefined
    uncached: RunningServer<TillReady> | undefined
    postmaster?: number | undefined
  }> = [
    { database: 'embedded', till: embedded?.[0], uncached: embedded?.[1] },
    { database: 'external', till: postgresSide?.till, uncached: postgresSide?.uncached, postmaster: postgresSide?.postmaster },
  ]
  const notRun: string[] = []
  const replayWarnings: string[] = []
  for (const { database, till, uncached, postmaster } of services) {
    if (!databases.includes(database)) continue
    if (!till) {
      notRun.push(`✗ create payment and status read on ${database}: not measured, the server did not start (see above)`)
      continue
    }
    const probe = cpuProbe({ server: till.pid, postgres: postmaster ?? postmasterBelow(till.pid) })
    // Creates first, so the status reads then run against a table of thousands of payments, not one.
    const create = await measure(createTarget(till.ready), settings, probe)
    rows.push({ scenario: 'create payment', database, measurement: create.result, warmup: create.warmup, goal: CREATE_GOAL[database] })
    log(`create on ${database}: ${Math.round(create.result.okPerSecond)} req/s`)
    // 200 instead of 201 is an idempotent replay: a read, and a sign the referenceIds were not unique.
    const replays = (create.result.statusCodes['200'] ?? 0) + (create.warmup.statusCodes['200'] ?? 0)
    if (replays > 0) replayWarnings.push(`!! create on ${database}: ${replays} responses were idempotent replays (200), not creates (201)`)
    const status = await measure(await statusTarget(till.ready, await createOnePayment(till.ready)), settings, probe)
    rows.push({ scenario: 'status read', database, measurement: status.result, warmup: status.warmup, goal: READ_GOAL[database] })
    log(`status read on ${database}: ${Math.round(status.result.okPerSecond)} req/s`)
    // Stopped at once, so that an idle server (its expiry sweep, its GC) is not running beside the next one.
    await till.stop()
    // The same read with the status cache off: what a read costs when it has to ask the database (a
    // payment changed by another instance whose notification has not arrived, or one not read before).
    if (uncached) {
      const uncachedProbe = cpuProbe({ server: uncached.pid, postgres: postmaster ?? postmasterBelow(uncached.pid) })
      const read = await measure(await statusTarget(uncached.ready, await createOnePayment(uncached.ready)), settings, uncachedProbe)
      rows.push({ scenario: 'status, no cache', database, measurement: read.result, warmup: read.warmup })
      log(`status read without the cache on ${database}: ${Math.round(read.result.okPerSecond)} req/s`)
      await uncached.stop()
    }
    if (till.logLines() > 0) log(`${till.name} wrote ${till.logLines()} log lines at warn level or above (see above)`)
  }
  const bareLast = await measureBare('bare node, last')
  rows.unshift(bareFirst)
  rows.push(bareLast)
  await cleanUp()
  const elapsed = (performance.now() - started) / 1000

  const pgFacts = postgresSide?.facts
  const bareRates = [bareFirst, bareLast].map((row) => row.measurement.okPerSecond)
  const bareRate = bareRates.every((rate) => rate > 0) ? (bareRates[0]! + bareRates[1]!) / 2 : undefined
  const spread = bareRate ? Math.abs(bareRates[0]! - bareRates[1]!) / bareRate : 0
  const facts = describeSetup({ settings, pgFacts, embeddedFacts, bareRate, spread, background })

  console.log('')
  console.log(facts.join('\n'))
  console.log('')
  console.log(resultsTable(rows, bareRate))
  const cpu = cpuTable(rows)
  if (cpu) {
    console.log('')
    console.log(
      `CPU per 2xx response (µs), and cores kept busy, during each measured run: the server's process, ` +
        `PostgreSQL's processes (pg), this process (loadgen), and the rest of the machine (other)`,
    )
    console.log(cpu)
  }
  console.log('')
  console.log('Goals:')
  for (const line of [...goalLines(rows, bareRate), ...notRun]) console.log(`  ${line}`)
  const failed = [...failureLines(rows), ...replayWarnings]
  if (failed.length > 0) {
    console.log('')
    for (const line of failed) console.log(line)
    console.log('!! Some requests did not do what was asked: the figures above do not measure a working service.')
  }
  if (startErrors.length > 0) console.log('\n!! Not every server started: this run is incomplete.')
  if (profileDir)
    console.log(`\nCPU profiles of the services: ${profileDir} (summarize with: node --import tsx bench/profile-summary.ts FILE)`)
  console.log(`\nRun took ${elapsed.toFixed(1)} s.`)

  const anyFailure = rows.some((row) => failures(row.measurement) > 0 || failures(row.warmup) > 0)
  return startErrors.length > 0 || anyFailure || replayWarnings.length > 0 ? 1 : 0
}

process.once('SIGINT', onInterrupt)
process.once('SIGTERM', onInterrupt)
// Whatever ends the process, no server outlives it (PostgreSQL servers stop with their supervisors' pipes).
process.once('exit', killAllNow)

try {
  process.exitCode = await main()
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`[bench] ${error.message}`)
    process.exitCode = 2
  } else {
    console.error(`[bench] the benchmark could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    process.exitCode = 1
  }
} finally {
  await cleanUp()
}
