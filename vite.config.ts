// The workspace's one vitest config. `vitest run` from the repository root runs
// every project; `vitest run --project service-pg` runs one.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url))

// Repeated in each project rather than inherited with `extends: true`, because
// vite's config merge concatenates arrays such as `include`.
const shared = {
  pool: 'forks',
  testTimeout: 20_000,
  hookTimeout: 30_000,
} as const

// One embedded PostgreSQL server per worker, each with a migrated template a test file copies.
const withDatabase = { globalSetup: [here('./packages/service/test/global-setup.ts')] }

export default defineConfig({
  test: {
    // Two cores.
    maxWorkers: 2,
    // Packages are being written alongside this config; an empty project is not a failure.
    passWithNoTests: true,
    projects: [
      {
        test: {
          ...shared,
          name: 'contract',
          root: here('./packages/contract'),
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // The typed Node client: pure units, fault injection on a local node:http server, and the real
        // service started through @till/testing (*.int.test.ts).
        test: {
          ...shared,
          name: 'client',
          root: here('./packages/client'),
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // The checkout page's browser code (packages/service/src/checkout/page), its pure modules: none of
        // them touches the DOM.
        test: {
          ...shared,
          name: 'checkout-page',
          root: here('./packages/service/src/checkout/page'),
          include: ['**/*.test.ts'],
        },
      },
      {
        // The build-time template minifier of the elements' bundle and the checkout page.
        test: {
          ...shared,
          name: 'template-minifier',
          root: here('./packages/template-minifier'),
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // Unit and integration tests, the integration ones on the embedded PostgreSQL server.
        test: {
          ...shared,
          ...withDatabase,
          name: 'service',
          root: here('./packages/service'),
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['src/checkout/page/**'],
          // The `till` these tests spawn runs the sources, not the last build: they test what is on disk.
          env: { TILL_FROM_SOURCE: '1' },
        },
      },
      {
        // The Express router against a real Till, through @till/client.
        test: {
          ...shared,
          ...withDatabase,
          name: 'express',
          root: here('./packages/express'),
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // The embedded-checkout host kit: pure units, its React Native handlers called with fake events, and
        // docs/embedded-checkout.md's example.
        test: {
          ...shared,
          name: 'webview',
          root: here('./packages/webview'),
          include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
        },
      },
      {
        // The local chain's tools against a real anvil: `pnpm devchain pay` and its EIP-681 parser.
        test: {
          ...shared,
          name: 'devchain',
          root: here('./packages/devchain'),
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // The demo shop's backend (its own API; the pay flow itself is covered by e2e/shop).
        test: {
          ...shared,
          name: 'demo',
          root: here('./demo'),
          include: ['server/**/*.test.ts', 'examples/**/*.test.ts'],
        },
      },
    ],
  },
})
