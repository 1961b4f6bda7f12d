// Whether a build is older than its inputs, so `npm start` builds only what changed since the last build.
// Modification times, as make reads them: a checkout, a pull or an edit makes a file newer than the build.
// Plain Node, no dependencies.
import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'

// Outputs, caches and what the build never reads.
const SKIPPED = new Set(['node_modules', 'dist', '.vite', '.results', 'test-results', 'coverage'])

/** The newest modification time among the files below `dirs` (a missing one counts as nothing). */
export function newestMtimeMs(dirs) {
  let newest = 0
  const visit = (dir) => {
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      if (SKIPPED.has(entry.name) || entry.name.endsWith('.tsbuildinfo')) continue
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) visit(full)
      else if (entry.isFile()) newest = Math.max(newest, statSync(full).mtimeMs)
    }
  }
  for (const dir of dirs) {
    try {
      if (statSync(dir).isFile()) newest = Math.max(newest, statSync(dir).mtimeMs)
      else visit(dir)
    } catch {
      // Not there: nothing of it to build.
    }
  }
  return newest
}

function mtimeOrUndefined(file) {
  try {
    return statSync(file).mtimeMs
  } catch {
    return undefined
  }
}

/**
 * A build whose stamp is `stampFile`: fresh while no input is newer than the stamp. The stamp is written
 * with the time the build started, so an edit made while it ran still counts as newer.
 */
export function buildStamp(stampFile, inputs) {
  return {
    isFresh() {
      const builtAt = mtimeOrUndefined(stampFile)
      return builtAt !== undefined && newestMtimeMs(inputs) <= builtAt
    },
    /** Runs `build`, then stamps it with its start time. */
    build(build) {
      const startedAt = new Date()
      build()
      mkdirSync(path.dirname(stampFile), { recursive: true })
      writeFileSync(stampFile, `${startedAt.toISOString()}\n`)
      utimesSync(stampFile, startedAt, startedAt)
    },
  }
}
