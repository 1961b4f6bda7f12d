// Public surface of @till/testing.
export { expect, type TillWorkerFixtures, test } from './fixture.ts'
export { type PaidInSandbox, type PayInSandboxOptions, payInSandbox, type SandboxOutcome } from './pay-in-sandbox.ts'
export { connectSandboxTill, type SandboxTill, type StartSandboxTillOptions, startSandboxTill } from './sandbox-till.ts'
