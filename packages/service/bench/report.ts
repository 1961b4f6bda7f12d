// The printed result: one table of measurements with each goal beside its figure, and the failures
// that make a figure meaningless, loudly.
import type { CpuComponent } from './cpu.ts'
import type { Measurement } from './load.ts'

/** Where till serve keeps its data: its own embedded server, or one it is pointed at with --database-url. */
export type Database = 'embedded' | 'external'

export type Goal =
  /** At least this many 2xx responses per second. */
  | { kind: 'rate'; atLeast: number }
  /** At least this fraction of the bare Node server's rate. */
  | { kind: 'ratio'; atLeast: number }

export type Row = {
  scenario: string
  database: Database | '-'
  measurement: Measurement
  /** Failures during the warm-up count too: they mean the scenario does not work. */
  warmup: Measurement
  goal?: Goal
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })
const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1))

export function failures(measurement: Measurement): number {
  return measurement.non2xx + measurement.errors
}

export function goalText(goal: Goal): string {
  return goal.kind === 'rate' ? `≥ ${integer.format(goal.atLeast)}/s` : `≥ ${goal.atLeast}× bare`
}

export function goalMet(row: Row, bareRate: number | undefined): boolean | undefined {
  const { goal } = row
  if (!goal) return undefined
  if (failures(row.measurement) > 0 || failures(row.warmup) > 0) return false
  if (goal.kind === 'rate') return row.measurement.okPerSecond >= goal.atLeast
  return bareRate ? row.measurement.okPerSecond / bareRate >= goal.atLeast : false
}

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)))
  // Numbers read best right-aligned; the first two columns are words.
  const line = (row: string[]) =>
    row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')
  const header = line(cells[0]!)
  return [header, '-'.repeat(header.length), ...cells.slice(1).map(line)].join('\n')
}

export function resultsTable(rows: Row[], bareRate: number | undefined): string {
  const cells = [['scenario', 'database', 'req/s (2xx)', 'p50 ms', 'p97.5 ms', 'p99 ms', 'errors', '× bare', 'goal', '']]
  for (const row of rows) {
    const m = row.measurement
    const met = goalMet(row, bareRate)
    cells.push([
      row.scenario,
      row.database,
      integer.format(m.okPerSecond),
      ms(m.p50),
      ms(m.p97_5),
      ms(m.p99),
      String(failures(m) + failures(row.warmup)),
      bareRate ? `${(m.okPerSecond / bareRate).toFixed(2)}×` : '-',
      row.goal ? goalText(row.goal) : '',
      met === undefined ? '' : met ? '✓' : '✗',
    ])
  }
  return pad(cells)
}

/** One line per goal, for reading at a glance (and for grepping in CI logs). */
export function goalLines(rows: Row[], bareRate: number | undefined): string[] {
  return rows.flatMap((row) => {
    if (!row.goal) return []
    const met = goalMet(row, bareRate)
    const figure =
      row.goal.kind === 'rate'
        ? `${integer.format(row.measurement.okPerSecond)}/s`
        : bareRate
          ? `${(row.measurement.okPerSecond / bareRate).toFixed(2)}× bare (${integer.format(row.measurement.okPerSecond)} vs ${integer.format(bareRate)} req/s)`
          : 'no bare figure'
    const failed = failures(row.measurement) + failures(row.warmup)
    const note = failed > 0 ? ` — but ${failed} requests failed, so it does not count` : ''
    return [`${met ? '✓' : '✗'} ${row.scenario} on ${row.database} ${goalText(row.goal)}: ${figure}${note}`]
  })
}

/** What went wrong, per row that had any failed request; empty when every request got a 2xx. */
export function failureLines(rows: Row[]): string[] {
  return rows.flatMap((row) =>
    (['warmup', 'measurement'] as const).flatMap((phase) => {
      const m = row[phase]
      if (failures(m) === 0) return []
      const codes = Object.entries(m.statusCodes)
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, count]) => `HTTP ${code} ×${count}`)
      const what = [...codes, m.errors > 0 ? `${m.errors} connection errors (${m.timeouts} timeouts)` : ''].filter(Boolean)
      return [`!! ${row.scenario} on ${row.database} (${phase === 'warmup' ? 'warm-up' : 'measured run'}): ${what.join(', ')}`]
    }),
  )
}

/**
 * CPU per 2xx response and cores kept busy, per component. A Node server near 1.0 core is the
 * bottleneck of its row (its JavaScript runs on one). "other" is the rest of the machine's busy time:
 * the kernel's share that no process is charged for, and any other program running meanwhile, which
 * competes with the benchmark for the same cores.
 */
export function cpuTable(rows: Row[]): string | undefined {
  const components: CpuComponent[] = ['server', 'postgres', 'load generator']
  if (rows.every((row) => Object.keys(row.measurement.cpuMs).length === 0)) return undefined
  const label: Record<CpuComponent, string> = { server: 'server', postgres: 'pg', 'load generator': 'loadgen', machine: 'machine' }
  const cells = [
    ['scenario', 'database', ...components.map((c) => `${label[c]} µs`), ...components.map((c) => `${label[c]} cores`), 'other cores'],
  ]
  for (const row of rows) {
    const m = row.measurement
    const perRequest = (c: CpuComponent) => {
      const cpu = m.cpuMs[c]
      return cpu === undefined || m.ok === 0 ? '-' : integer.format((cpu * 1000) / m.ok)
    }
    const cores = (cpu: number | undefined) =>
      cpu === undefined || m.durationSeconds === 0 ? '-' : (cpu / 1000 / m.durationSeconds).toFixed(2)
    const machine = m.cpuMs.machine
    const other = machine === undefined ? undefined : Math.max(0, machine - components.reduce((sum, c) => sum + (m.cpuMs[c] ?? 0), 0))
    cells.push([row.scenario, row.database, ...components.map(perRequest), ...components.map((c) => cores(m.cpuMs[c])), cores(other)])
  }
  return pad(cells)
}
