// The EVM area's second door, for a dynamic import only: the rail, and viem with it, load where a
// configuration names networks (rails/area.ts), never with the service (cli/start-up-imports.test.ts).
export { evmRail } from './rail.ts'
export { evmRefunds } from './refunds.ts'
