#!/usr/bin/env node
// The `till` command. It runs the service's compiled JavaScript (dist/, made by `pnpm build`, which
// `npm test`, `npm start` and `pnpm bench` run first): no TypeScript compiler in the process, so it starts
// faster and holds less (docs/decisions/0002). TILL_FROM_SOURCE=1 runs the sources through tsx instead,
// as the service's own tests do, so they always test what is on disk.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { staleBuild } from './stale-build.mjs'

const fromSource = process.env.TILL_FROM_SOURCE === '1'
const compiled = new URL('../dist/cli/main.js', import.meta.url)

let main
if (fromSource) {
  const { register } = await import('tsx/esm/api')
  register()
  ;({ main } = await import('../src/cli/main.ts'))
} else if (!existsSync(fileURLToPath(compiled))) {
  console.error('till: the service is not built (no packages/service/dist). Run `pnpm build` in the repository, then try again.')
  process.exit(1)
} else {
  const stale = staleBuild(new URL('..', import.meta.url))
  if (stale)
    console.error(`till: warning: ${stale} is newer than the build; run \`pnpm build\` to run what is on disk.`)
    // Source maps are built but not loaded (they cost about 5 MB): the JavaScript is tsc's, module for module
    // and line for line close to the source. NODE_OPTIONS=--enable-source-maps names the TypeScript lines.
  ;({ main } = await import(compiled.href))
}
process.exitCode = await main(process.argv.slice(2))
