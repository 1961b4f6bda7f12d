// Playwright runs the specs in e2e/ in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium); only
// when neither exists does it look for a browser of its own (`pnpm exec playwright install chromium`).
// Each worker starts its own service and merchant return server: see e2e/fixtures.ts.
import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find(
  (candidate): candidate is string => candidate !== undefined && candidate !== '' && existsSync(candidate),
);

export default defineConfig({
  testDir: './e2e',
  // Traces, screenshots and the last-run list; wiped at the start of every run.
  outputDir: './e2e/.results',
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Two cores; each worker also runs a service with in-memory PGlite.
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
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        // Root in a container: Chromium's sandbox needs user namespaces that are usually not there.
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
