// The dashboard is one page of Lit elements; Vite bundles it into dist/, which `till serve` serves at
// /dashboard/ with a strict CSP: no inline script, so no module-preload polyfill either.
import { defineConfig } from 'vite'

export default defineConfig({
  base: '/dashboard/',
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false }, target: 'es2022', assetsInlineLimit: 0 },
})
