// Public surface of @till/client.
export { TillClient } from './client.ts'
export type { RequestOptions, TillClientOptions } from './config.ts'
export {
  CLIENT_ERROR_CODES,
  TillApiError,
  TillAuthenticationError,
  TillConflictError,
  TillConnectionError,
  TillError,
  type TillErrorCode,
  TillInvalidRequestError,
  TillNotFoundError,
  TillPermissionError,
  TillRateLimitError,
  TillResponseValidationError,
  TillTimeoutError,
} from './errors.ts'
export type { PartnerPaymentListParams, PaymentList, PaymentListPage, PaymentListParams } from './list.ts'
export type { CreatedPayment, CreatePaymentParams, MerchantPayments } from './resources/merchant-payments.ts'
export type { CreatedMerchant, CreateMerchantOptions, Merchants, UnappliedTransferListParams } from './resources/merchants.ts'
export type { Payments } from './resources/payments.ts'
export type { CreatedRefund, CreateRefundOptions, CreateRefundParams, RefundListParams, Refunds } from './resources/refunds.ts'
export type { Sandbox } from './resources/sandbox.ts'
export type { WebhookEndpoints } from './resources/webhook-endpoints.ts'
export type { ResponseMeta, TillResponse } from './response.ts'
export type { RetryTuning } from './retry.ts'
