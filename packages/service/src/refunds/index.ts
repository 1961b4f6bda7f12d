// The refunds area's door: what the rest of the service may use of it. Everything else in refunds/ is its own
// (src/areas.test.ts checks it); its builder, area.ts, is for the composition root, app.ts, alone.
export { openRefundLinks, type RefundLinks, type RefundPage, refundLinks } from './links.ts'
export type { CheckedRefundTransfer, RefundRail, RefundRails } from './rail.ts'
export type { RefundMatch, RefundRecord, RefundRow } from './record.ts'
export { toRefundRecord } from './record.ts'
export { type RefundService, refundReference } from './service.ts'
export { refundStore, type RefundStore } from './store.ts'
export { refundSnapshotView, refundView } from './views.ts'
