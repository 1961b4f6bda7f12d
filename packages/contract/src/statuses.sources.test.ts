// The status vocabulary is used, not copied: no source of the workspace (tests and benchmarks aside) writes a
// list or union of payment statuses of its own, as `['pending', 'processing']` or `'succeeded' | 'failed'`.
// They import statuses.ts (@till/contract, or @till/contract/statuses where zod must stay out).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { LISTING_STATUSES, MERCHANT_STATUSES } from './statuses.ts'

const WORKSPACE = fileURLToPath(new URL('../../..', import.meta.url))
const SELF = fileURLToPath(new URL('./statuses.ts', import.meta.url))
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'test', 'bench', '.tmp'])

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return SKIPPED_DIRECTORIES.has(entry.name) ? [] : sources(full)
    const isSource = /\.(ts|mjs)$/.test(entry.name) && !/\.(test|spec|test-helper|test-data)\./.test(entry.name)
    return isSource && full !== SELF ? [full] : []
  })
}

const status = `'(?:${[...new Set([...MERCHANT_STATUSES, ...LISTING_STATUSES])].join('|')})'`
// Two status literals side by side in a list or a union.
const HAND_WRITTEN_LIST = new RegExp(`${status}\\s*(?:,|\\|)\\s*${status}`)

describe('the status vocabulary', () => {
  it('is the only list of statuses in the workspace’s sources', () => {
    const offenders = ['packages', 'demo'].flatMap((top) =>
      sources(path.join(WORKSPACE, top)).flatMap((file) =>
        // The whole file, so that a list written one value per line is found too.
        [...readFileSync(file, 'utf8').matchAll(new RegExp(HAND_WRITTEN_LIST, 'g'))].map(
          (match) => `${path.relative(WORKSPACE, file)}: ${match[0].replaceAll(/\s+/g, ' ')}`,
        ),
      ),
    )
    expect(offenders).toEqual([])
  })

  it('finds a list or a union written by hand, and not a list of delivery statuses', () => {
    expect(HAND_WRITTEN_LIST.test("const LIVE = ['pending', 'processing']")).toBe(true)
    expect(HAND_WRITTEN_LIST.test("type Final = 'succeeded' | 'failed' | 'expired'")).toBe(true)
    expect(HAND_WRITTEN_LIST.test("WHERE status IN ('requires_action','cancelled')")).toBe(true)
    expect(HAND_WRITTEN_LIST.test("const OPEN = [\n  'pending',\n  'processing',\n]")).toBe(true)
    expect(HAND_WRITTEN_LIST.test("type DeliveryStatus = 'pending' | 'held' | 'delivered' | 'failed'")).toBe(false)
    expect(HAND_WRITTEN_LIST.test("await transition({ payment, to: 'failed', reason: 'declined' })")).toBe(false)
  })
})
