// The prebuilt browser bundle: both elements defined, Lit included, minified, for a plain
// `<script type="module" src="pay-elements.js">`. `pnpm --filter @till/elements build` writes
// dist/pay-elements.js (with its map), after tsc has built the modules. `buildElementsBundle()` is the
// workspace's (bench/weight.ts): the published package ships the built file instead.
// bench/weight.ts weighs the same build against a bare Lit element built with `bundleOptions` too.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions, type Plugin } from 'esbuild'
import { minifyTemplates } from '@till/template-minifier'

const sources = fileURLToPath(new URL('./src/', import.meta.url))

/**
 * The elements' `html` and `css` templates are written to be read; this takes their layout out of the
 * bundle (@till/template-minifier's minify-markup.ts says what it removes). Only the package's own
 * sources: Lit's are minified.
 * The map it hands esbuild with each module keeps the bundle's source map pointing at the readable source.
 */
export const minifyTemplatesPlugin: Plugin = {
  name: 'till-minify-templates',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(sources)) return undefined
      const { code, map } = minifyTemplates(await readFile(args.path, 'utf8'), path.basename(args.path))
      const inline = Buffer.from(JSON.stringify(map)).toString('base64')
      return { contents: `${code}\n//# sourceMappingURL=data:application/json;base64,${inline}\n`, loader: 'ts' }
    })
  },
}

/** The esbuild options of the bundle (and of the bench's baseline). */
export const bundleOptions = {
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  // The members the elements share with their base class are `_` and a lowercase letter (`_state`, `_ask`,
  // see src/shared.ts): shortened like local names (`#private` ones esbuild shortens by itself). Lit's own
  // internals (`_$AH`, `_$litType$`) and public names never match.
  mangleProps: /^_[a-z][A-Za-z]*$/,
  plugins: [minifyTemplatesPlugin],
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
  // The published drop-in bundle and its source map, next to tsc's output in dist/.
  const out = fileURLToPath(new URL('./dist/pay-elements.js', import.meta.url))
  const result = await build({ ...bundleOptions, entryPoints: [bundleEntry], outfile: out, sourcemap: 'linked' })
  mkdirSync(new URL('./dist/', import.meta.url), { recursive: true })
  for (const file of result.outputFiles) writeFileSync(file.path, file.contents)
  // tsc does not copy declaration files it was given: the JSX typings go over by hand, with the `.js`
  // specifiers a consumer's TypeScript resolves.
  const jsx = readFileSync(new URL('./src/jsx.d.ts', import.meta.url), 'utf8').replace(/(from '\.\/[\w-]+)\.ts'/g, "$1.js'")
  writeFileSync(new URL('./dist/jsx.d.ts', import.meta.url), jsx)
  const bundle = readFileSync(out)
  const integrity = `sha384-${createHash('sha384').update(bundle).digest('base64')}`
  console.log(`${out}: ${(bundle.length / 1024).toFixed(1)} KB, integrity ${integrity}`)
}
