// `pnpm pack:kit [DIR]`: builds the public packages and writes their tarballs into DIR (default
// .tmp/kit), as a merchant installs them: `npm install DIR/till-*.tgz`, all of them together (ADR 16).
// pnpm pack turns `workspace:*` into the exact version of each sibling; this checks it did.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { buildPackages, log, repoRoot } from './lib/ensure.mjs'

const PUBLIC = ['contract', 'client', 'express', 'elements']
const out = path.resolve(process.argv[2] ?? path.join(repoRoot, '.tmp', 'kit'))

buildPackages()
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
for (const name of PUBLIC) {
  const result = spawnSync('pnpm', ['pack', '--pack-destination', out], {
    cwd: path.join(repoRoot, 'packages', name),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (result.status !== 0) throw new Error(`pnpm pack failed for @till/${name}`)
}
for (const file of readdirSync(out).filter((name) => name.endsWith('.tgz'))) {
  const manifest = JSON.parse(execFileSync('tar', ['-xOzf', path.join(out, file), 'package/package.json'], { encoding: 'utf8' }))
  for (const [dependency, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
    if (dependency.startsWith('@till/') && !/^\d+\.\d+\.\d+/.test(String(range))) {
      throw new Error(`${file}: ${dependency} is "${range}", not an exact version`)
    }
  }
  log(`${path.join(out, file)}`)
}
log(`the kit's tarballs are in ${out}: npm install ${out}/till-*.tgz`)
