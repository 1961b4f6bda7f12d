import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, type Metafile, type OutputFile, type Plugin, stop } from 'esbuild'
// The elements' template minifier, shared rather than copied: what it removes, and so what a template may
// rely on, is written there (minify-markup.ts).
import { minifyTemplates } from '../elements/minify-templates.ts'
import { privateNames } from './mangle.ts'

export type CheckoutAsset = {
  /** Content-addressed, so it can be cached for good: `checkout.<hash>.js`. */
  fileName: string
  contentType: string
  body: Buffer
  gzip: Buffer
}

export type CheckoutAssets = {
  /** The page's critical path: the one script and the one stylesheet its HTML links. */
  script: CheckoutAsset
  style: CheckoutAsset
  /**
   * Loaded later by the script itself: the wallet code, once the buyer picks a browser wallet, and the
   * rest of the processing and final screens, once the buyer pays or the payment moves on.
   */
  lazy: CheckoutAsset[]
}

const JS = 'text/javascript; charset=utf-8'
const OUT_DIR = fileURLToPath(new URL('./dist-memory/', import.meta.url))

const SOURCES = fileURLToPath(new URL('./src/', import.meta.url))
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

function asset(fileName: string, contentType: string, text: string): CheckoutAsset {
  const body = Buffer.from(text)
  return { fileName, contentType, body, gzip: gzipSync(body, { level: 9 }) }
}

function hashed(name: string, ext: 'js' | 'css', contentType: string, text: string): CheckoutAsset {
  const hash = createHash('sha256').update(text).digest('base64url').slice(0, 12)
  return asset(`${name}.${hash}.${ext}`, contentType, text)
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
 * Bundles and minifies the page's script, its lazily loaded wallet chunk and its stylesheet in memory. The
 * service does this once per process at start-up (about 100 ms), so there is no build step to forget and
 * no stale bundle to serve.
 */
export async function buildCheckoutAssets(): Promise<CheckoutAssets> {
  const [script, style] = await Promise.all([
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
      // The script's private names (mangle.ts), shortened as its local names are.
      mangleProps: privateNames,
    }),
    build({ entryPoints: [entry('checkout.css')], bundle: true, minify: true, write: false, charset: 'utf8' }),
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
    script: hashed('checkout', 'js', JS, main.text),
    style: hashed('checkout', 'css', 'text/css; charset=utf-8', css),
    lazy: chunks.map((chunk) => asset(basename(chunk.path), JS, chunk.text)),
  }
}

let memo: Promise<CheckoutAssets> | undefined

/** The assets of this process, built on first use. */
export function checkoutAssets(): Promise<CheckoutAssets> {
  memo ??= buildCheckoutAssets().catch((error: unknown) => {
    memo = undefined
    throw error
  })
  return memo
}
