// The demo shop is a handful of static pages; Vite bundles their scripts (and the pay elements) into
// demo/dist, which the demo backend serves.
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'
import { LOGO_PATH } from './server/brand.ts'
import { renderLogo } from './server/logo.ts'

const page = (name: string): string => fileURLToPath(new URL(`./shop/${name}.html`, import.meta.url))

// What every page shares, written once: the pages hold `<!--shop-head-->` and `<!--shop-header-->`.
const HEAD = `<meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="icon" href="data:,">`
const HEADER = `<header class="site">
      <a class="brand" href="./">Till Tea</a>
      <nav aria-label="Shop">
        <a href="./">Products</a>
        <a href="./cart.html">Cart (<span data-cart-count>0</span>)</a>
        <a href="./orders.html">Orders</a>
      </nav>
    </header>
    <p class="sandbox-note">A demo shop on Till’s sandbox: test wallets, no real money.</p>`

const shopLayout = (): Plugin => ({
  name: 'shop-layout',
  transformIndexHtml: (html) => html.replace('<!--shop-head-->', HEAD).replace('<!--shop-header-->', HEADER),
})

/** The shop's logo as a file of the build, at the path the shop serves it from. */
const shopLogo = (): Plugin => ({
  name: 'shop-logo',
  apply: 'build',
  async generateBundle() {
    this.emitFile({ type: 'asset', fileName: LOGO_PATH.slice(1), source: await renderLogo() })
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
