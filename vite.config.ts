// The workspace's one vitest config. `vitest run` from the repository root runs
// every project; `vitest run --project service-pg` runs one.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

// Repeated in each project rather than inherited with `extends: true`, because
// vite's config merge concatenates arrays such as `include`.
const shared = {
  pool: 'forks',
  testTimeout: 20_000,
  // Opening PGlite takes 3-4 s (and ~800 MB) per test file, far past the 10 s default on a busy machine.
  hookTimeout: 60_000,
} as const;

export default defineConfig({
  test: {
    // Two cores, and each worker opening PGlite needs ~800 MB.
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
        // service on PGlite (*.int.test.ts).
        test: {
          ...shared,
          name: 'client',
          root: here('./packages/client'),
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // The checkout page's pure modules (formatting, model); none of them touches the DOM.
        test: {
          ...shared,
          name: 'checkout-page',
          root: here('./packages/checkout-page'),
          include: ['src/**/*.test.ts'],
        },
      },
      {
        // Unit and integration tests on embedded PGlite. Nothing is provided here, so
        // inject('databaseUrl') returns undefined and fixtures fall back to PGlite.
        test: {
          ...shared,
          name: 'service',
          root: here('./packages/service'),
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        },
      },
      {
        // The Express router against a real Till on PGlite, through @till/client.
        test: {
          ...shared,
          name: 'express',
          root: here('./packages/express'),
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
      {
        // The integration suite again, on a real PostgreSQL: the global setup starts a
        // throwaway cluster (or uses TILL_TEST_DATABASE_URL) and provides its URL.
        test: {
          ...shared,
          name: 'service-pg',
          root: here('./packages/service'),
          include: ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'],
          globalSetup: [here('./packages/service/test/pg-global-setup.ts')],
        },
      },
    ],
  },
});
