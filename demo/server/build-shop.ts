// Builds the shop into demo/dist, and the elements' drop-in bundle the README's example serves. Run as a
// process of its own by stack.ts: Vite's build leaves a few hundred MB on the heap that the long-running
// demo server has no use for.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildElementsBundle } from '@till/elements/build'
import { build } from 'vite'

await build({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: 'warn' })
// `@till/elements/pay-elements.js` resolves only once the file exists; it sits in dist/ beside build.ts.
const bundle = fileURLToPath(new URL('./dist/pay-elements.js', import.meta.resolve('@till/elements/build')))
mkdirSync(path.dirname(bundle), { recursive: true })
writeFileSync(bundle, await buildElementsBundle())
