// Playwright runs the specs in e2e/ in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium); only
// when neither exists does it look for a browser of its own (`pnpm exec playwright install chromium`).
// The checkout specs start a service and a merchant return server per worker (e2e/fixtures.ts); the shop
// specs run against one demo stack (the service, the demo backend and the built shop) started below.
import { execFileSync } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'
import type { TillWorkerFixtures } from '@till/testing'
import { chromiumLaunchOptions } from './scripts/lib/chromium.mjs'

/** A port no other server on this machine holds right now (the kernel's choice for port 0). */
function freePort(): string {
  const probe =
    "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
  return execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8' })
}

// The config is loaded again in every worker; the ports and state file picked by the first load travel to
// the workers in the environment, so all of them talk to the same stack.
process.env.TILL_E2E_SHOP_PORT ||= freePort()
process.env.TILL_E2E_SHOP_TILL_PORT ||= freePort()
process.env.TILL_E2E_SHOP_STATE ||= path.join(os.tmpdir(), `till-e2e-shop-${process.pid}.json`)
const shopPort = process.env.TILL_E2E_SHOP_PORT
const shopState = process.env.TILL_E2E_SHOP_STATE

export default defineConfig<object, TillWorkerFixtures>({
  testDir: './e2e',
  // Removes the demo stack's state file (it holds a sandbox key) whatever became of the stack.
  globalTeardown: './e2e/global-teardown.ts',
  // Traces, screenshots and the last-run list; wiped at the start of every run.
  outputDir: './e2e/.results',
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two cores; each worker also runs a service with its own embedded PostgreSQL.
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [
    ['list'],
    // scripts/test.mjs sets PLAYWRIGHT_JSON_OUTPUT_FILE and counts the results from that file.
    ['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE || './e2e/.results/report.json' }],
  ],
  use: {
    // The merchant return server uses a certificate made at run time.
    ignoreHTTPSErrors: true,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions(),
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' } },
    {
      // docs/testing-your-checkout.md's "@till/testing in your own Playwright suite", run as a merchant would run it.
      name: 'readme-example',
      testDir: './demo/examples/playwright',
      use: { browserName: 'chromium', tillOptions: { command: [process.execPath, 'packages/service/bin/till.mjs'] } },
    },
  ],
  webServer: {
    // Builds the shop, starts `till serve --sandbox` (the slow wallet's confirmation held until a spec
    // releases it) and the shop's HTTPS backend; the state file gives the specs the shop's address and the
    // sandbox credentials.
    command: [
      'node --import tsx demo/server/main.ts',
      `--port ${shopPort} --till-port ${process.env.TILL_E2E_SHOP_TILL_PORT} --checkout-port 0 --state-file ${shopState}`,
      '-- --sandbox-hold-confirmations',
    ].join(' '),
    url: `https://127.0.0.1:${shopPort}/healthz`,
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    timeout: 120_000,
    // Stopped as Ctrl-C stops it, so it stops its Till and removes its state file; SIGKILL (Playwright's
    // default) would leave both behind.
    gracefulShutdown: { signal: 'SIGINT', timeout: 15_000 },
    // Its banner prints the sandbox API key, which test logs can do without; errors still show.
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
