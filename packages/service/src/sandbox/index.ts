// The sandbox area's door: what the rest of the service may use of it. Everything else in sandbox/ is its own
// (src/areas.test.ts checks it).
export { sandboxRail } from './rail.ts'
export { sandboxRoutes } from './routes.ts'
export { ensureSandboxAccounts } from './seed.ts'
export type { SandboxAccounts } from './seed.ts'
export { type SandboxRefunds, sandboxRefunds } from './refunds.ts'
