// Whether the service's build is older than its sources: an edit not yet built would otherwise run the
// old code without a word. A walk of ~250 files' mtimes, a few milliseconds at start-up.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The newest source file changed after the build, relative to the package, or undefined. */
export function staleBuild(packageUrl) {
  const root = fileURLToPath(packageUrl)
  let built
  try {
    built = statSync(join(root, 'dist', 'cli', 'main.js')).mtimeMs
  } catch {
    return undefined
  }
  let entries
  try {
    entries = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
  } catch {
    return undefined
  }
  for (const entry of entries) {
    // Tests and tsc's incremental cache (a typecheck writes it after a build) are not what runs.
    if (!entry.isFile() || /\.test\.|\.test-helper\.|\.tsbuildinfo$/.test(entry.name)) continue
    const file = join(entry.parentPath ?? entry.path, entry.name)
    if (statSync(file).mtimeMs > built) return file.slice(root.length)
  }
  return undefined
}
