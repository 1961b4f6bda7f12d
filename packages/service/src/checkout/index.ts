// The checkout area's door: what the rest of the service may use of it. Everything else in checkout/ is its own
// (src/areas.test.ts checks it).
export { checkoutArea } from './area.ts'
