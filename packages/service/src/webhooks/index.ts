// The webhooks area's door: what the rest of the service may use of it. Everything else in webhooks/ is its own
// (src/areas.test.ts checks it); its builder, area.ts, is for the composition root, app.ts, alone.
export { secretSealer } from './secrets.ts'
export { webhookService } from './service.ts'
export { webhookDeliveryStore } from './deliveries.ts'
export type { WebhookService } from './service.ts'
