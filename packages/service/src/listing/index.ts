// The listing area's door: what the rest of the service may use of it. Everything else in listing/ is its own
// (src/areas.test.ts checks it).
export { listingArea } from './area.ts'
