import { test as base } from '@playwright/test'
import { type SandboxTill, type StartSandboxTillOptions, startSandboxTill } from './sandbox-till.ts'

export interface TillWorkerFixtures {
  /** How the worker's sandbox Till is started; set with `test.use({ tillOptions: { … } })` or in the config. */
  tillOptions: StartSandboxTillOptions
  /** A sandbox Till of this worker's own, started before its first test and stopped after its last. */
  till: SandboxTill
}

/** Playwright's `test` with a sandbox Till per worker. */
export const test = base.extend<object, TillWorkerFixtures>({
  tillOptions: [{}, { scope: 'worker', option: true }],
  till: [
    async ({ tillOptions }, use) => {
      const till = await startSandboxTill(tillOptions)
      try {
        await use(till)
      } finally {
        await till.stop()
      }
    },
    // Starting Till (its database, migrations) takes a few seconds on top of the first test's own.
    { scope: 'worker', timeout: 90_000 },
  ],
})

export { expect } from '@playwright/test'
