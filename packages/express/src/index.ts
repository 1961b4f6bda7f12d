// Public surface of @till/express.
export { type CancelledOrderPayment, cancelOrderPayment } from './cancel.ts'
export { MerchantError, type MerchantErrorCode } from './errors.ts'
export type {
  CheckoutUrls,
  FulfilmentOptions,
  PayRouterOptions,
  StatusSource,
  TillSettings,
  WebhookOptions,
  WebhookRouterOptions,
} from './options.ts'
export { type MemoryOrderStoreOptions, memoryOrderStore, type OrderStore, type PayableOrder } from './orders.ts'
export { type Reconciler, type ReconcilerOptions, type ReconcileRun, reconciler } from './reconcile.ts'
export { payRouter } from './router.ts'
export { WEBHOOK_TOLERANCE_SECONDS } from './signature.ts'
export { type MemoryWebhookIdStoreOptions, memoryWebhookIdStore, type WebhookIdStore } from './webhook-ids.ts'
export { UnmatchedPaymentError, webhookRouter } from './webhooks.ts'
// What `onEvent` receives, told apart by `type`.
export type {
  PaymentWebhookEvent,
  RefundWebhookEvent,
  TransferUnappliedWebhookEvent,
  UnappliedTransfer,
  UnappliedTransferEventData,
  WebhookEvent,
} from '@till/contract'
