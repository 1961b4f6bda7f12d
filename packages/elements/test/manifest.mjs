// A wtr server command, `till-manifest-fresh`: regenerates custom-elements.json in memory with the
// package's analyzer config and compares it with the committed file. src/manifest.test.ts calls it, so a
// stale manifest fails the suite (fix: `pnpm --filter @till/elements run manifest`).

import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { cli } from '@custom-elements-manifest/analyzer/cli.js'

const root = fileURLToPath(new URL('..', import.meta.url))

/** @returns {import('@web/test-runner').TestRunnerPlugin} */
export function manifestPlugin() {
  return {
    name: 'till-manifest-fresh',
    async executeCommand({ command }) {
      if (command !== 'till-manifest-fresh') return undefined
      const generated = `${JSON.stringify(await cli({ argv: ['analyze', '--quiet'], cwd: root, noWrite: true }), null, 2)}\n`
      const committed = readFileSync(new URL('../custom-elements.json', import.meta.url), 'utf8')
      if (generated === committed) return { fresh: true }
      // The first line that differs, to say where.
      const a = committed.split('\n')
      const b = generated.split('\n')
      const line = a.findIndex((text, index) => text !== b[index])
      return { fresh: false, line: line + 1, committed: a[line] ?? '', generated: b[line] ?? '' }
    },
  }
}
