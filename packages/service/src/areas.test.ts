// The service's areas meet only through their doors (docs/decisions/0025-service-areas.md): a source file
// outside an area imports from it only its `index.ts` (or its `lazy.ts`, a door for a dynamic import of
// what is heavy to load), never a file inside; the composition root, app.ts, alone imports the areas'
// builders, their `area.ts` (so no door leads back to a builder, and no cycle runs through them). Tests may
// reach further.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = fileURLToPath(new URL('.', import.meta.url))
const AREAS = [
  'accounts',
  'audit',
  'backup',
  'checkout',
  'dashboard',
  'evm',
  'listing',
  'logos',
  'merchants',
  'metrics',
  'payments',
  'rails',
  'refunds',
  'retention',
  'sandbox',
  'webhooks',
]
// Statements over several lines included: `[^;']` runs across line breaks up to the specifier.
const IMPORT = /^(?:import|export)\b[^;']*?\sfrom\s+'(\.[^']*)'|^import\s+'(\.[^']*)'|import\(\s*'(\.[^']*)'\s*\)/gm
const ROOT = 'app.ts'

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sources(full)
    return entry.name.endsWith('.ts') && !/\.(test|test-helper|test-data)\.ts$/.test(entry.name) ? [full] : []
  })
}

const areaOf = (file: string): string | undefined => {
  const [first, ...rest] = path.relative(SRC, file).split(path.sep)
  return rest.length > 0 && first !== undefined && AREAS.includes(first) ? first : undefined
}

/** The imports of `file` that reach into another area past its door, as `file → target`. */
function trespasses(file: string, source: string): string[] {
  const area = areaOf(file)
  return [...source.matchAll(IMPORT)].flatMap((match) => {
    const target = path.resolve(path.dirname(file), match[1] ?? match[2] ?? match[3] ?? '')
    const targetArea = areaOf(target)
    const door = path.relative(SRC, target)
    const isDoor =
      door === `${targetArea}/index.ts` ||
      (door === `${targetArea}/lazy.ts` && match[3] !== undefined) ||
      (door === `${targetArea}/area.ts` && path.relative(SRC, file) === ROOT)
    return targetArea && targetArea !== area && !isDoor ? [`${path.relative(SRC, file)} → ${path.relative(SRC, target)}`] : []
  })
}

describe('the areas of the service', () => {
  it('each have a door', () => {
    for (const area of AREAS) expect(readdirSync(path.join(SRC, area)), area).toContain('index.ts')
  })

  it('meet only through their doors', () => {
    expect(sources(SRC).flatMap((file) => trespasses(file, readFileSync(file, 'utf8')))).toEqual([])
  })

  it('are found out when a file reaches past a door, by any kind of import', () => {
    const file = path.join(SRC, 'listing', 'service.ts')
    expect(trespasses(file, "import { paymentStore } from '../payments/store.ts'")).toEqual(['listing/service.ts → payments/store.ts'])
    expect(trespasses(file, "import type { PaymentRecord } from '../payments/record.ts'")).toHaveLength(1)
    expect(trespasses(file, "const rail = await import('../evm/rail.ts')")).toHaveLength(1)
    expect(trespasses(file, "const rail = await import('../evm/lazy.ts')")).toEqual([])
    expect(trespasses(file, "import { evmRail } from '../evm/lazy.ts'")).toHaveLength(1)
    expect(trespasses(file, "import { paymentStore } from '../payments/index.ts'")).toEqual([])
    expect(trespasses(file, "import {\n  paymentStore,\n  type PaymentRecord,\n} from '../payments/store.ts'")).toHaveLength(1)
    expect(trespasses(file, "import { paymentsArea } from '../payments/area.ts'")).toHaveLength(1)
    expect(trespasses(path.join(SRC, 'app.ts'), "import { paymentsArea } from './payments/area.ts'")).toEqual([])
    expect(trespasses(file, "import { listingCursors } from './cursor.ts'")).toEqual([])
  })
})
