// web-test-runner: the elements' tests (src/**/*.test.ts, @open-wc/testing), in Debian's Chromium through
// Playwright. The dev server also
// plays the merchant backend (test/backend.mjs), so the elements make real requests. `npm test` runs this
// with TILL_WTR_REPORT set; test/json-reporter.mjs writes the counts there.
import { fileURLToPath } from 'node:url'
import { esbuildPlugin } from '@web/dev-server-esbuild'
import { defaultReporter, summaryReporter } from '@web/test-runner'
import { playwrightLauncher } from '@web/test-runner-playwright'
import { chromiumLaunchOptions } from '../../scripts/lib/chromium.mjs'
import { testBackend } from './test/backend.mjs'
import { jsonReporter } from './test/json-reporter.mjs'
import { manifestPlugin } from './test/manifest.mjs'

const root = fileURLToPath(new URL('.', import.meta.url))

/** @type {import('@web/test-runner').TestRunnerConfig} */
export default {
  rootDir: root,
  files: [`${root}src/**/*.test.ts`, `${root}test/**/*.test.ts`],
  nodeResolve: true,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: `${root}tsconfig.json` }), manifestPlugin()],
  middleware: [testBackend()],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: chromiumLaunchOptions(),
    }),
  ],
  // Two cores: one test file at a time.
  concurrency: 1,
  testFramework: { config: { timeout: 5000 } },
  testsFinishTimeout: 120_000,
  // Lit's development build (nodeResolve picks it) says so once per file; its other warnings stay.
  filterBrowserLogs: ({ args }) => !String(args[0]).includes('Lit is in dev mode'),
  // Every test by name and the failures at the end (summary), the progress bar (default), the counts (json).
  reporters: [
    defaultReporter({ reportTestResults: false }),
    summaryReporter({ flatten: false }),
    jsonReporter(process.env.TILL_WTR_REPORT),
  ],
}
