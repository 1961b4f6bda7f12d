// docs/operations.md lists every metric Till exports, with its type and labels; this keeps the two equal.
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { tillMetrics } from './catalog.ts'

const OPERATIONS = new URL('../../../../docs/operations.md', import.meta.url)

/** The rows of the Metrics section's table: name, type (its first word) and labels. */
function documented() {
  const text = readFileSync(OPERATIONS, 'utf8')
  const section = text.slice(text.indexOf('## Metrics'), text.indexOf('\n## ', text.indexOf('## Metrics') + 1))
  return section
    .split('\n')
    .filter((line) => /^\| `till_/.test(line))
    .map((line) => {
      const [name = '', type = '', labels = ''] = line
        .split('|')
        .slice(1)
        .map((cell) => cell.trim())
      return {
        name: name.replaceAll('`', ''),
        type: type.split(/[ ,]/)[0],
        labels: [...labels.matchAll(/`(\w+)`/g)].map(([, label]) => label).sort(),
      }
    })
}

it('documents every metric, with its type and labels, and no other', async () => {
  const metrics = tillMetrics()
  const exported = (await metrics.registry.getMetricsAsJSON()).map((metric) => {
    const labelNames = (metrics.registry.getSingleMetric(metric.name) as unknown as { labelNames: string[] }).labelNames
    return { name: metric.name, type: String(metric.type), labels: [...labelNames].sort() }
  })
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)
  expect(documented().sort(byName)).toEqual(exported.sort(byName))
})

it("adds Node's process metrics only where they are served", async () => {
  const bare = (await tillMetrics().registry.getMetricsAsJSON()).map((metric) => metric.name)
  const served = (await tillMetrics({ process: true }).registry.getMetricsAsJSON()).map((metric) => metric.name)
  expect(bare.every((name) => name.startsWith('till_'))).toBe(true)
  expect(served).toEqual(expect.arrayContaining([...bare, 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes']))
})
