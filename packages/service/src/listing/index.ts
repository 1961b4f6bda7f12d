// The listing area's door: what the rest of the service may use of it. Everything else in listing/ is its own
// (src/areas.test.ts checks it); its builder, area.ts, is for the composition root, app.ts, alone.
export type { ListingSearch } from './filter.ts'
