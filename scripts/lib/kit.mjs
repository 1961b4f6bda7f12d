// The kit's tarballs, as a merchant installs them (ADR 16). Used by `pnpm pack:kit` and the consumer test.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import { repoRoot } from './ensure.mjs'

/**
 * The kit: every package of `packages/` that is not private. Its own manifest says so, and nothing else
 * lists the kit (`pnpm build` builds every package that has a build, in dependency order).
 */
export const PUBLIC_PACKAGES = readdirSync(path.join(repoRoot, 'packages'))
  .filter((name) => {
    const manifest = path.join(repoRoot, 'packages', name, 'package.json')
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).private !== true
  })
  .sort()

/**
 * Packs every public package (built already) into `out` and returns the tarballs' paths. pnpm pack turns
 * `workspace:*` into the exact version of each sibling; this checks it did.
 */
export function packKit(out) {
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  for (const name of PUBLIC_PACKAGES) {
    const result = spawnSync('pnpm', ['pack', '--pack-destination', out], {
      cwd: path.join(repoRoot, 'packages', name),
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    if (result.status !== 0) throw new Error(`pnpm pack failed for @till/${name}`)
  }
  const tarballs = readdirSync(out)
    .filter((name) => name.endsWith('.tgz'))
    .map((name) => path.join(out, name))
  for (const file of tarballs) {
    const manifest = JSON.parse(execFileSync('tar', ['-xOzf', file, 'package/package.json'], { encoding: 'utf8' }))
    for (const [dependency, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      if (dependency.startsWith('@till/') && !/^\d+\.\d+\.\d+/.test(String(range))) {
        throw new Error(`${path.basename(file)}: ${dependency} is "${range}", not an exact version`)
      }
    }
  }
  return tarballs
}
