// The prebuilt browser bundle: both elements defined, Lit included, minified, for a plain
// `<script type="module" src="pay-elements.js">`. `pnpm --filter @till/elements build` writes
// dist/pay-elements.js; a server can also call `buildElementsBundle()` at start-up and serve the text.
// bench/weight.ts weighs the same build against a bare Lit element built with `bundleOptions` too.
import { mkdirSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions } from 'esbuild'

/** The esbuild options of the bundle (and of the bench's baseline). */
export const bundleOptions = {
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  // The elements' internal members end in `_` (`state_`, `ask_`, see src/shared.ts): shortened like local
  // names. Only a lowercase letter first: Lit's own internals (`_$E_`, `__…`) and public names never match.
  mangleProps: /^[a-z][A-Za-z]*_$/,
  write: false,
} as const satisfies BuildOptions

export const bundleEntry = fileURLToPath(new URL('./src/define/index.ts', import.meta.url))

/** The bundle's JavaScript. */
export async function buildElementsBundle(): Promise<string> {
  const result = await build({ ...bundleOptions, entryPoints: [bundleEntry] })
  const text = result.outputFiles[0]?.text
  if (text === undefined) throw new Error('esbuild produced no bundle')
  return text
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = new URL('./dist/pay-elements.js', import.meta.url)
  const text = await buildElementsBundle()
  mkdirSync(new URL('./dist/', import.meta.url), { recursive: true })
  writeFileSync(out, text)
  console.log(`${fileURLToPath(out)}: ${(text.length / 1024).toFixed(1)} KB`)
}
