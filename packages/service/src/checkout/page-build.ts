// The checkout page's browser code (./page/), bundled by esbuild: one script and one stylesheet on the
// page's critical path, and the chunks the script loads later (docs/decisions/0008).
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { minifyTemplates } from '@till/template-minifier'
import { build, type Metafile, type OutputFile, type Plugin, stop } from 'esbuild'
import { type CheckoutAsset, type CheckoutAssets, checkoutAsset, REFUND_PAGE_SCRIPT } from './page-assets.ts'
import { privateNames } from './page-mangle.ts'

// From the package's root, so the path holds for this module in src/checkout/ and compiled in dist/checkout/.
const SOURCES = fileURLToPath(new URL('../../src/checkout/page/', import.meta.url))
const OUT_DIR = `${SOURCES}dist-memory/`
const entry = (name: string) => `${SOURCES}${name}`

/**
 * The page's `html` templates are laid out to be read; esbuild leaves template literals as written, so
 * their layout would go to every buyer. lit-html's own sources are minified already.
 */
const minifyTemplatesPlugin: Plugin = {
  name: 'checkout-minify-templates',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!args.path.startsWith(SOURCES)) return undefined
      return { contents: minifyTemplates(await readFile(args.path, 'utf8'), basename(args.path)).code, loader: 'ts' }
    })
  },
}

function hashed(name: string, ext: 'js' | 'css', text: string): CheckoutAsset {
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 12)
  return checkoutAsset(`${name}.${hash}.${ext}`, text)
}

/**
 * The page's script must stay one request: a module that both it and the wallet code import would be
 * split into a shared chunk the script loads up front. Only dynamic imports may leave the entry.
 */
function checkSplit(metafile: Metafile, entryOut: string) {
  const eager = metafile.outputs[entryOut]?.imports.filter((imported) => imported.kind !== 'dynamic-import') ?? []
  if (eager.length > 0) {
    throw new Error(
      `the checkout script would load ${eager.map((imported) => imported.path).join(', ')} up front; import only types across the split`,
    )
  }
}

/**
 * Bundles and minifies the page's script, its lazily loaded chunks and its stylesheet in memory (about
 * 100 ms): once in `pnpm build` for the compiled service, once per process when it runs from source.
 */
export async function buildCheckoutAssets(): Promise<CheckoutAssets> {
  const [script, style, refundPage] = await Promise.all([
    build({
      entryPoints: [entry('main.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      splitting: true,
      // Nothing is written; the directory only makes the chunks' names relative to the script's own URL.
      outdir: OUT_DIR,
      entryNames: 'checkout',
      // Each lazy chunk is named for its entry (browser-path, outcome) and esbuild's content hash, and the
      // script imports it by that name: cacheable for good.
      chunkNames: '[name].[hash]',
      metafile: true,
      target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
      write: false,
      legalComments: 'none',
      charset: 'utf8',
      plugins: [minifyTemplatesPlugin],
      // The script's private names (page-mangle.ts), shortened as its local names are.
      mangleProps: privateNames,
    }),
    build({ entryPoints: [entry('checkout.css')], bundle: true, minify: true, write: false, charset: 'utf8' }),
    // The refund pages' own script (issue 24): served beside the chunks, never loaded by the checkout page.
    build({
      entryPoints: [entry('refund-page.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
      write: false,
      legalComments: 'none',
      charset: 'utf8',
      plugins: [minifyTemplatesPlugin],
    }),
  ])
  // The build is done once: esbuild's helper process would otherwise idle beside the service (~17 MB).
  await stop()
  const main = script.outputFiles.find((file) => basename(file.path) === 'checkout.js')
  const css = style.outputFiles[0]?.text
  if (main === undefined || css === undefined) throw new Error('esbuild produced no checkout assets')
  checkSplit(script.metafile, Object.keys(script.metafile.outputs).find((path) => path.endsWith('/checkout.js')) ?? '')
  const chunks = script.outputFiles.filter((file: OutputFile) => file !== main && file.path.endsWith('.js'))
  return {
    // Renaming the entry is safe: nothing imports it back.
    script: hashed('checkout', 'js', main.text),
    style: hashed('checkout', 'css', css),
    lazy: [
      ...chunks.map((chunk) => checkoutAsset(basename(chunk.path), chunk.text)),
      hashed(REFUND_PAGE_SCRIPT, 'js', refundPage.outputFiles[0]?.text ?? ''),
    ],
  }
}
