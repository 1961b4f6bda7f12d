// The page's modules import one another without a cycle, type imports included: model.ts holds the page's
// state and names, view.ts draws it, and the wallet chunk's screens draw with the view's kit (issue 21).
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = fileURLToPath(new URL('.', import.meta.url))
const IMPORT = /^(?:import|export)\b[^;']*?\sfrom\s+'(\.[^']*)'/gm

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sources(full)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : []
  })
}

/** The first cycle found in `graph`, as the chain of files around it, or undefined. */
function cycleIn(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>()
  const visit = (file: string, chain: string[]): string[] | undefined => {
    if (chain.includes(file)) return [...chain.slice(chain.indexOf(file)), file]
    if (done.has(file)) return undefined
    for (const next of graph.get(file) ?? []) {
      const found = visit(next, [...chain, file])
      if (found) return found
    }
    done.add(file)
    return undefined
  }
  for (const file of graph.keys()) {
    const found = visit(file, [])
    if (found) return found
  }
  return undefined
}

describe("the page's modules", () => {
  it('import one another without a cycle', () => {
    const graph = new Map(
      sources(SRC).map((file) => [
        path.relative(SRC, file),
        [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) =>
          path.relative(SRC, path.resolve(path.dirname(file), match[1] ?? '')),
        ),
      ]),
    )
    expect(cycleIn(graph)).toBeUndefined()
  })

  it('would show a cycle as its chain', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ])
    expect(cycleIn(graph)).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts'])
  })
})
