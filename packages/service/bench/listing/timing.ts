// Latency samples and the listing bench's table: p50 and p95 per scenario, targets beside them.

export type Sample = { p50: number; p95: number }

export type Timing = {
  name: string
  /** First page: the page and the query's stats. */
  first: Sample
  /** The second page (stats come from the cursor). */
  next: Sample | undefined
  /** A page 1,000 pages deep, when the filter has that many. */
  deep: Sample | undefined
  deepPages: number | undefined
  /** The stats alone, read in-process. */
  stats: Sample
  /** ms: page + stats p95 goal. */
  target: number
}

const PAGE_TARGET_MS = 15
const DEEP_RATIO = 1.5

/** Runs `work` `n` times in a row after two warm-ups and returns its latency percentiles in ms. */
export async function timeIt(n: number, work: () => Promise<unknown>): Promise<Sample> {
  await work()
  await work()
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const start = performance.now()
    await work()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] ?? Number.NaN
  return { p50: at(0.5), p95: at(0.95) }
}

const f = (value: number | undefined) => (value === undefined ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1))
const mark = (ok: boolean | undefined) => (ok === undefined ? ' ' : ok ? '✓' : '✗')

export function printTable(input: { rows: Timing[]; baseline: Sample; payments: number; paymentsSeconds: number; seedSeconds: number }) {
  const { rows, baseline } = input
  const lines: string[] = []
  lines.push(
    `Listing over ${input.payments.toLocaleString('en-US')} payments: rows made in ${input.paymentsSeconds.toFixed(1)} s (goal ≤ 60 s ${mark(input.paymentsSeconds <= 60)}), ` +
      `then indexes, rollups and customer sets built in bulk, ${input.seedSeconds.toFixed(1)} s in all`,
  )
  lines.push(`baseline: status read p50 ${f(baseline.p50)} ms, p95 ${f(baseline.p95)} ms; ×b = p95 / baseline p95`)
  lines.push('')
  lines.push(
    '| scenario | page+stats p50 | p95 | goal | page p50 | p95 (≤15) | deep p50 | p95 | deep/page (≤1.5) | stats p50 | p95 | ×b page+stats |',
  )
  lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|')
  let met = 0
  let total = 0
  for (const row of rows) {
    const firstOk = row.first.p95 <= row.target
    const pageOk = row.next ? row.next.p95 <= PAGE_TARGET_MS && (row.deep ? row.deep.p95 <= PAGE_TARGET_MS : true) : undefined
    const ratio = row.deep && row.next ? row.deep.p95 / row.next.p95 : undefined
    const ratioOk = ratio === undefined ? undefined : ratio <= DEEP_RATIO
    for (const ok of [firstOk, pageOk, ratioOk]) {
      if (ok === undefined) continue
      total++
      if (ok) met++
    }
    lines.push(
      `| ${row.name} | ${f(row.first.p50)} | ${f(row.first.p95)} ${mark(firstOk)} | ≤ ${row.target} | ${f(row.next?.p50)} | ${f(row.next?.p95)} ${mark(pageOk)} | ` +
        `${f(row.deep?.p50)} | ${f(row.deep?.p95)}${row.deep ? '' : ` (${row.deepPages ?? 'fewer'} pages)`} | ${ratio === undefined ? '-' : ratio.toFixed(2)} ${mark(ratioOk)} | ` +
        `${f(row.stats.p50)} | ${f(row.stats.p95)} | ${(row.first.p95 / baseline.p95).toFixed(1)} |`,
    )
  }
  lines.push('')
  lines.push(`${met} of ${total} targets met.`)
  process.stdout.write(`${lines.join('\n')}\n`)
}
