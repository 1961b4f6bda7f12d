// The demo shop is a handful of static pages; Vite bundles their scripts (and the pay elements) into
// demo/dist, which the demo backend serves.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import { LOGO_PATH, SHOP_TAGLINE } from './server/brand.ts'
import { renderLogo } from './server/logo.ts'

const page = (name: string): string => fileURLToPath(new URL(`./shop/${name}.html`, import.meta.url))

/** The brand's SVG, as the shop's favicon and header logo (the PNG at LOGO_PATH is for Till). */
const LOGO_SVG_PATH = '/brand/till-tea.svg'

// What every page shares, written once: the pages hold `<!--shop-head-->` and `<!--shop-header-->`.
const HEAD = `<meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="icon" href="${LOGO_SVG_PATH}" type="image/svg+xml">`
const HEADER = `<header class="site">
      <a class="brand" href="./"><img src="${LOGO_SVG_PATH}" alt="" width="36" height="36">Till Tea</a>
      <nav aria-label="Shop">
        <a href="./">Products</a>
        <a href="./cart.html">Cart (<span data-cart-count>0</span>)</a>
        <a href="./orders.html">Orders</a>
      </nav>
      <p class="sandbox-note">${SHOP_TAGLINE.sandbox}</p>
    </header>`

const shopLayout = (): Plugin => ({
  name: 'shop-layout',
  transformIndexHtml: (html) => html.replace('<!--shop-head-->', HEAD).replace('<!--shop-header-->', HEADER),
})

/** The shop's logo as files of the build, at the paths the shop serves them from: the PNG for Till, the SVG for its pages. */
const shopLogo = (): Plugin => ({
  name: 'shop-logo',
  apply: 'build',
  async generateBundle() {
    this.emitFile({ type: 'asset', fileName: LOGO_PATH.slice(1), source: await renderLogo() })
    const svg = await readFile(new URL('./brand/till-tea.svg', import.meta.url))
    this.emitFile({ type: 'asset', fileName: LOGO_SVG_PATH.slice(1), source: svg })
  },
})

export default defineConfig({
  plugins: [shopLayout(), shopLogo()],
  root: fileURLToPath(new URL('./shop', import.meta.url)),
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    rollupOptions: {
      input: { index: page('index'), cart: page('cart'), order: page('order'), return: page('return'), orders: page('orders') },
    },
  },
})
