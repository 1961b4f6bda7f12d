import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build, stop } from 'esbuild'

export type CheckoutAsset = {
  /** Content-addressed, so it can be cached for good: `checkout.<hash>.js`. */
  fileName: string
  contentType: string
  body: Buffer
  gzip: Buffer
}

export type CheckoutAssets = { script: CheckoutAsset; style: CheckoutAsset }

const entry = (name: string) => fileURLToPath(new URL(`./src/${name}`, import.meta.url))

function asset(name: string, ext: 'js' | 'css', contentType: string, text: string): CheckoutAsset {
  const body = Buffer.from(text)
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12)
  return { fileName: `${name}.${hash}.${ext}`, contentType, body, gzip: gzipSync(body, { level: 9 }) }
}

/**
 * Bundles and minifies the page's script and stylesheet in memory. The service does this once per
 * process at start-up (about 100 ms), so there is no build step to forget and no stale bundle to serve.
 */
export async function buildCheckoutAssets(): Promise<CheckoutAssets> {
  const [script, style] = await Promise.all([
    build({
      entryPoints: [entry('main.ts')],
      bundle: true,
      minify: true,
      format: 'esm',
      target: ['es2022', 'chrome109', 'firefox115', 'safari16'],
      write: false,
      legalComments: 'none',
      charset: 'utf8',
    }),
    build({ entryPoints: [entry('checkout.css')], bundle: true, minify: true, write: false, charset: 'utf8' }),
  ])
  // The build is done once: esbuild's helper process would otherwise idle beside the service (~17 MB).
  await stop()
  const js = script.outputFiles[0]?.text
  const css = style.outputFiles[0]?.text
  if (js === undefined || css === undefined) throw new Error('esbuild produced no checkout assets')
  return {
    script: asset('checkout', 'js', 'text/javascript; charset=utf-8', js),
    style: asset('checkout', 'css', 'text/css; charset=utf-8', css),
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
