// `pnpm bench`, the elements' part: the weight of the prebuilt bundle (both elements defined, Lit included)
// against a bare Lit element built in the same run with the same esbuild options, gzipped at level 9.
//
// Budget: at most 8 KB gzip for both elements with Lit. The ratio to a bare Lit element is printed for
// information: a 1.25× budget was tried and dropped, because what it measured was the cost of the features
// the elements must have (states, slots, parts, typed events, accessibility, the form fallback). Exit code 1
// only when over 8 KB or when it could not build.
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { buildElementsBundle, bundleOptions } from '../build.ts'

const BUDGET = { gzipBytes: 8 * 1024 }

const BARE = `import { html, LitElement } from 'lit'
customElements.define('bare-element', class extends LitElement { render() { return html\`<button><slot></slot></button>\` } })`

const gzip = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length

async function bare(): Promise<string> {
  const result = await build({
    ...bundleOptions,
    stdin: { contents: BARE, resolveDir: new URL('..', import.meta.url).pathname, loader: 'ts' },
  })
  const text = result.outputFiles[0]?.text
  if (text === undefined) throw new Error('esbuild produced no baseline')
  return text
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`

async function main() {
  const [elements, baseline] = await Promise.all([buildElementsBundle(), bare()])
  const size = gzip(elements)
  const base = gzip(baseline)
  const ratio = size / base
  const fitsSize = size <= BUDGET.gzipBytes

  console.log('\n[bench] <pay-button> + <pay-return> bundle (dist/pay-elements.js), gzip -9, Lit included')
  console.log(`  ${String(size).padStart(5)} B  ${kb(size).padStart(8)}  (${kb(elements.length)} minified)  both elements`)
  console.log(
    `  ${String(base).padStart(5)} B  ${kb(base).padStart(8)}  (${kb(baseline.length)} minified)  a bare Lit element, built in this run`,
  )
  console.log(`  ${String(size - base).padStart(5)} B  the elements' own code, styles and wording`)
  console.log(`  size: ${kb(size)} of ${kb(BUDGET.gzipBytes)} ${fitsSize ? '✓' : '✗'}`)
  console.log(`  ratio: ${ratio.toFixed(3)}× a bare Lit element (for information; no budget)`)
  if (!fitsSize) process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(`[bench] elements weight could not be measured: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
})
