// The payments area's door: what the rest of the service may use of it. Everything else in payments/ is its own
// (src/areas.test.ts checks it); its builder, area.ts, is for the composition root, app.ts, alone.
export type { PaymentsArea } from './area.ts'
export { pathBetween } from './lifecycle.ts'
export { paymentColumns, toPaymentRecord } from './record.ts'
export type { PaidDetails, PaymentRecord, PaymentRow } from './record.ts'
export type { PaymentService, Transition } from './service.ts'
export type { StatusEvents } from './status-events.ts'
export { paymentStore } from './store.ts'
export type { PaymentObserver } from './store.ts'
export { listingPayment } from './views.ts'
