// What `till` loads before it serves: the static imports reachable from its entry point. viem (the EVM
// rail) and sharp (libvips, for logos) cost start-up time and memory every instance would pay; they load
// with a dynamic import where they are needed: a configuration naming networks, the first logo.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The command, and the service it loads (`serve` imports it while the database starts).
const ENTRIES = [fileURLToPath(new URL('./main.ts', import.meta.url)), fileURLToPath(new URL('../app.ts', import.meta.url))]

// `import x from '…'`, `import { a } from '…'`, `export … from '…'`, `import '…'`; never `import type`.
const STATIC_IMPORT = /^(?:import(?!\s+type\b)(?:[\s\S]*?\sfrom)?|export(?!\s+type\b)[\s\S]*?\sfrom)\s*'([^']+)'/gm

/** Every package a module statically imports, following its relative imports through the sources. */
function staticPackages(entries: readonly string[]): Set<string> {
  const packages = new Set<string>()
  const seen = new Set<string>()
  const queue = [...entries]
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue
    seen.add(file)
    for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith('.')) queue.push(path.resolve(path.dirname(file), specifier))
      else packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? ''))
    }
  }
  return packages
}

describe("till's start-up", () => {
  it('loads neither viem nor sharp until they are needed', () => {
    const loaded = staticPackages(ENTRIES)
    // The walk reaches the service: what it always needs is there.
    expect(loaded).toContain('fastify')
    expect(loaded).toContain('pg')
    expect(loaded.has('viem')).toBe(false)
    expect(loaded.has('sharp')).toBe(false)
  })

  it('reads imports as they are written, and not a type-only one', () => {
    const packagesOf = (source: string) => [...source.matchAll(STATIC_IMPORT)].map((match) => match[1])
    expect(packagesOf("import { getAddress } from 'viem'\nimport type { Metadata } from 'sharp'\nexport { x } from 'pg'")).toEqual([
      'viem',
      'pg',
    ])
  })
})
