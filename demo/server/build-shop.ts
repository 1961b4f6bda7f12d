// Builds the shop into demo/dist. Run as a process of its own by stack.ts: Vite's build leaves a few hundred
// MB on the heap that the long-running demo server has no use for. The elements' drop-in bundle the pay-button
// example (docs/merchant-integration.md) serves is @till/elements' own build (dist/pay-elements.js), made by `pnpm build`.
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

await build({ configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)), logLevel: 'warn' })
