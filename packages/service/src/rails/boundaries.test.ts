import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = fileURLToPath(new URL('..', import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sources(full)
    return entry.name.endsWith('.ts') && !entry.name.includes('.test') ? [full] : []
  })
}

// The sandbox is one rail among others (issue 14): the checkout page, its gateway API and the lifecycle
// reach it only through the PaymentRail interface. Besides the sandbox's own code (its API routes included),
// only the rails' door (which composes the rails) and the sandbox's account seeding may import it.
const MAY_IMPORT_SANDBOX = new Set(['rails/area.ts', 'index.ts', 'cli/serve.ts'])

describe('the sandbox rail', () => {
  it('is imported only by its own code, the rails’ door and the sandbox seeding', () => {
    const offenders = sources(SRC)
      .map((file) => path.relative(SRC, file))
      .filter((file) => !file.startsWith('sandbox/') && !MAY_IMPORT_SANDBOX.has(file))
      .filter((file) => /from '[^']*\/sandbox\/[^']*'/.test(readFileSync(path.join(SRC, file), 'utf8')))
    expect(offenders).toEqual([])
  })

  it('is found by the check above when someone imports it', () => {
    expect(/from '[^']*\/sandbox\/[^']*'/.test("import { TEST_WALLETS } from '../sandbox/test-wallets.ts'")).toBe(true)
  })
})
