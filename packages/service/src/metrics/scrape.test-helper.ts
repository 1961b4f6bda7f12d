// Reads what a Prometheus server would: the text a metrics listener answers, as samples by name and labels.

type Sample = { name: string; labels: Record<string, string>; value: number }

export type Scrape = {
  /** The sample's value; undefined when the series is not there. */
  value(name: string, labels?: Record<string, string>): number | undefined
  /** How much the series grew since `before` (a series not there yet counts as 0). */
  delta(before: Scrape, name: string, labels?: Record<string, string>): number
  /** Every series of a metric, by its labels. */
  series(name: string): Record<string, string>[]
  /** The metric names the text describes (its `# TYPE` lines). */
  names(): string[]
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g

export function parseScrape(text: string): Scrape {
  const samples: Sample[] = []
  const names: string[] = []
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) names.push(line.split(' ')[2] ?? '')
    const match = SAMPLE.exec(line)
    if (!match || line.startsWith('#')) continue
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map(([, key = '', value = '']) => [key, value]))
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) })
  }
  const matches = (sample: Sample, name: string, labels: Record<string, string>) =>
    sample.name === name &&
    Object.keys(labels).length === Object.keys(sample.labels).filter((key) => key !== 'le').length &&
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  const scrape: Scrape = {
    value: (name, labels = {}) => samples.find((sample) => matches(sample, name, labels))?.value,
    delta: (before, name, labels = {}) => (scrape.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0),
    series: (name) => samples.filter((sample) => sample.name === name).map((sample) => sample.labels),
    names: () => names,
  }
  return scrape
}

/** GET the listener's /metrics, parsed. */
export async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(url)
  if (response.status !== 200) throw new Error(`scraping ${url}: HTTP ${response.status}`)
  return parseScrape(await response.text())
}
