// The merchants area's door: what the rest of the service may use of it. Everything else in merchants/ is its own
// (src/areas.test.ts checks it); its builder, area.ts, is for the composition root, app.ts, alone.
export { idempotencyKeys } from '../http/idempotency.ts'
export { merchantService } from './service.ts'
export type { MerchantService } from './service.ts'
