// The checkout page's script, stylesheet and lazily loaded chunks, as the service serves them. The compiled
// service reads what `pnpm build` bundled into dist/checkout/assets/, so `till` neither loads esbuild nor
// bundles at start-up; run from its TypeScript sources (tests, tsx), it bundles them in memory, once per
// process, so a test never serves an out-of-date page.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { z } from 'zod'

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
  /** Loaded later by the script itself: the wallet code, once the buyer picks a browser wallet. */
  lazy: CheckoutAsset[]
}

/** The refund pages' script (issue 24), among the lazy assets as `refund-page.<hash>.js`. */
export const REFUND_PAGE_SCRIPT = 'refund-page'

/** The refund pages' script in `assets`: its file name, which the pages link. */
export function refundPageScript(assets: CheckoutAssets): CheckoutAsset {
  const script = assets.lazy.find((asset) => asset.fileName.startsWith(`${REFUND_PAGE_SCRIPT}.`))
  if (!script) throw new Error('the checkout assets hold no refund page script: rebuild the service')
  return script
}

const CONTENT_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' }

function contentTypeOf(fileName: string): string {
  const contentType = CONTENT_TYPES[extname(fileName)]
  if (contentType === undefined) throw new Error(`the checkout page has no asset type for ${fileName}`)
  return contentType
}

export function checkoutAsset(fileName: string, text: string): CheckoutAsset {
  const body = Buffer.from(text)
  return { fileName, contentType: contentTypeOf(fileName), body, gzip: gzipSync(body, { level: 9 }) }
}

const MANIFEST = 'assets.json'
const Manifest = z.object({ script: z.string(), style: z.string(), lazy: z.array(z.string()) })

/** Where the build leaves the bundle: beside this module, once it is compiled to dist/checkout/. */
const BUILT_DIR = new URL('./assets/', import.meta.url)
const fromSource = import.meta.url.endsWith('.ts')

/** Writes the bundle and its gzip beside each file, with a manifest naming the critical path. */
export async function writeCheckoutAssets(dir: URL, assets: CheckoutAssets): Promise<void> {
  await rm(dir, { recursive: true, force: true })
  await mkdir(dir, { recursive: true })
  for (const asset of [assets.script, assets.style, ...assets.lazy]) {
    await writeFile(new URL(asset.fileName, dir), asset.body)
    await writeFile(new URL(`${asset.fileName}.gz`, dir), asset.gzip)
  }
  const manifest = { script: assets.script.fileName, style: assets.style.fileName, lazy: assets.lazy.map((asset) => asset.fileName) }
  await writeFile(new URL(MANIFEST, dir), `${JSON.stringify(manifest, null, 2)}\n`)
}

export async function readCheckoutAssets(dir: URL): Promise<CheckoutAssets> {
  let manifest: z.infer<typeof Manifest>
  try {
    manifest = Manifest.parse(JSON.parse(await readFile(new URL(MANIFEST, dir), 'utf8')))
  } catch (error) {
    throw new Error(`the checkout page's bundle is missing or damaged in ${fileURLToPath(dir)}: run \`pnpm build\``, { cause: error })
  }
  const read = async (fileName: string): Promise<CheckoutAsset> => ({
    fileName,
    contentType: contentTypeOf(fileName),
    body: await readFile(new URL(fileName, dir)),
    gzip: await readFile(new URL(`${fileName}.gz`, dir)),
  })
  return { script: await read(manifest.script), style: await read(manifest.style), lazy: await Promise.all(manifest.lazy.map(read)) }
}

let memo: Promise<CheckoutAssets> | undefined

/** This process's assets: the build's when compiled, bundled on first use when run from source. */
export function checkoutAssets(): Promise<CheckoutAssets> {
  memo ??= (fromSource ? import('./page-build.ts').then((build) => build.buildCheckoutAssets()) : readCheckoutAssets(BUILT_DIR)).catch(
    (error: unknown) => {
      memo = undefined
      throw error
    },
  )
  return memo
}
