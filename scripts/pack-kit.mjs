// `pnpm pack:kit [DIR]`: builds the public packages and writes their tarballs into DIR (default .tmp/kit),
// to install all together: `npm install DIR/till-*.tgz` (ADR 16).
import path from 'node:path'
import { buildPackages, log, repoRoot } from './lib/ensure.mjs'
import { packKit } from './lib/kit.mjs'

const out = path.resolve(process.argv[2] ?? path.join(repoRoot, '.tmp', 'kit'))
buildPackages()
for (const file of packKit(out)) log(file)
log(`the kit's tarballs are in ${out}: npm install ${out}/till-*.tgz`)
