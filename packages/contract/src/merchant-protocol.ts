// The small HTTP protocol between the `@till/elements` and the merchant's own backend (`@till/express` serves it).
// The elements never talk to Till itself: the API key stays on the merchant's server, and the only proof
// of payment is the status that server reads from Till.
import type { MerchantPaymentStatus } from './statuses.ts'

/**
 * `POST <action>` from `<pay-button>`.
 *
 * - With JavaScript the element sends `Content-Type: application/json` and `Accept: application/json`; the
 *   body is the fields of its fallback form (or `{ orderId }` from its `order-id` attribute). The backend
 *   answers `201` (or `200` when it returns the order's open payment again) with this body.
 * - Without JavaScript the fallback form posts `application/x-www-form-urlencoded`; the backend answers
 *   `303 See Other` to `gatewayUrl`.
 *
 * The amount never travels from the browser: the backend reads it from its own order.
 */
export interface CreatePaymentReply {
  paymentId: string
  /** The hosted checkout page of the payment; the element sends the buyer there. */
  gatewayUrl: string
}

/** Every 4xx/5xx answer of the merchant backend: the same shape as the Pay interface's error body. */
export interface MerchantErrorBody {
  message: string
  code: string
  issues?: { field: string; message: string }[]
}

/** What `<pay-return>` shows. `mismatch`: the `payment_id` in the URL is not the order's payment. */
export type ReturnStatus = MerchantPaymentStatus | 'mismatch'

/**
 * `GET <verify><the return page's own query string>` from `<pay-return>`, e.g.
 * `/pay/verify?order=ord_1&payment_id=pay_…`. The backend compares `payment_id` with the payment it stored
 * for the order (spec 4.7), reads the status from Till server-side, fulfils the order once when it
 * succeeded, and answers `200` with this body.
 */
export interface VerifyReply {
  status: ReturnStatus
  /** True for succeeded, failed, expired, cancelled and mismatch: the element stops polling. */
  isFinal: boolean
  /** When to ask again while `isFinal` is false (Till's `pollInMs` for the payment). */
  pollInMs: number
  orderId?: string
  paymentId?: string
}
