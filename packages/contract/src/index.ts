// Public surface of @till/contract. The OpenAPI builder lives at `@till/contract/openapi` so that the
// service's request path never loads it.
export * from './bridge.ts'
export * from './caip.ts'
export * from './checkout.ts'
export * from './currency.ts'
export * from './errors.ts'
export * from './headers.ts'
export { ISO4217_CURRENCIES, ISO4217_PUBLISHED } from './iso4217.data.ts'
export * from './listing.ts'
export * from './listing-query.ts'
export * from './merchant.ts'
export * from './money.ts'
export * from './operations.ts'
export * from './payment.ts'
export * from './ready-line.ts'
export type * from './merchant-protocol.ts'
export * from './redirect-url.ts'
export * from './sandbox.ts'
export * from './status.ts'
export {
  canTransition,
  FINAL_STATUSES,
  type FinalStatus,
  fromListingStatus,
  isFinalStatus,
  isTerminalListingStatus,
  LISTING_STATUSES,
  CANCELLABLE_REFUND_STATUSES,
  canRefundTransition,
  HOLDING_REFUND_STATUSES,
  isFinalRefundStatus,
  MERCHANT_ONLY_STATUSES,
  REFUND_STATUSES,
  REFUND_TRANSITIONS,
  type RefundOutcome,
  type RefundStatus,
  MERCHANT_STATUSES,
  OPEN_STATUSES,
  STATUS_PROGRESS,
  TERMINAL_LISTING_STATUSES,
  TRANSITIONS,
  toListingStatus,
} from './statuses.ts'
export * from './versions.ts'
export * from './wallet-app.ts'
export * from './webhooks.ts'
export * from './wallet-link.ts'
export * from './unapplied-transfers.ts'
export * from './refunds.ts'
