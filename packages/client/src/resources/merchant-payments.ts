import {
  CancelPaymentResponse,
  type CreatePaymentRequestInput,
  CreatePaymentResponse,
  IDEMPOTENT_REPLAYED_HEADER,
  MerchantPaymentStatusResponse,
} from '@till/contract'
import type { RequestOptions } from '../config.ts'
import { type PaymentList, type PaymentListParams, paymentList } from '../list.ts'
import { checkedPaymentId, endpoint } from '../params.ts'
import type { RequestCore } from '../request.ts'
import { type TillResponse, withLastResponse } from '../response.ts'

/** The body of a create: the contract's request, with `amount.value` also accepted as a bigint. */
export type CreatePaymentParams = Omit<CreatePaymentRequestInput, 'amount'> & {
  amount: Omit<CreatePaymentRequestInput['amount'], 'value'> & {
    /** Minor units as a decimal string (`'1999'` is 19.99 EUR), or a bigint; never a float. */
    value: string | bigint
  }
}

/** A created payment (spec 2.3), and whether the server returned an existing one instead of creating it. */
export type CreatedPayment = CreatePaymentResponse & {
  /**
   * True when the server answered with the open payment it already had for this `referenceId` and amount
   * (`200` + `Idempotent-Replayed: true`) rather than creating one (`201`). It can be true for a payment
   * this very call created, when a first attempt reached the server but its answer was lost and the
   * retry found it.
   */
  replayed: boolean
}

/** The merchant checkout API (spec 4.2, 4.3): needs a `merchantId`, on the client or per request. */
export class MerchantPayments {
  readonly #core: RequestCore

  constructor(core: RequestCore) {
    this.#core = core
  }

  /**
   * Creates a payment for the merchant's order `referenceId` (`POST /v1/merchant/payment`).
   *
   * Safe to retry, and retried on timeouts, broken connections, 429 and 5xx: the referenceId is the
   * idempotency key of creation (docs/decisions/0003), so a repeated create of an open payment with the
   * same referenceId and amount returns that same payment instead of a second one. A referenceId already
   * paid gives `TillConflictError` `reference_already_paid`; one in use with another amount,
   * `reference_in_use`. The body is not validated here: the server's 400 (`TillInvalidRequestError`)
   * names each field in `issues`.
   */
  async create(body: CreatePaymentParams, options?: RequestOptions): Promise<TillResponse<CreatedPayment>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('MerchantPayment_create', {}),
        body,
        schema: CreatePaymentResponse,
        idempotent: true,
        merchantScoped: true,
      },
      options,
    )
    const replayed = meta.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()] === 'true'
    return withLastResponse({ ...data, replayed }, meta)
  }

  /**
   * The merchant's payments (`GET /v1/merchants/payments`): the partner listing scoped to the client's (or
   * the request's) `merchantId`. Await it for one page, or iterate it with `for await`.
   */
  list(params: PaymentListParams = {}, options?: RequestOptions): PaymentList {
    return paymentList(this.#core, { path: endpoint('MerchantPayments_list', {}).path, merchantScoped: true }, params, options)
  }

  /** The payment's status in the merchant view (`GET /v1/merchant/payment/{id}/status`, spec 4.3). */
  async status(paymentId: string, options?: RequestOptions): Promise<TillResponse<MerchantPaymentStatusResponse>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('MerchantPayment_status', { id: checkedPaymentId(paymentId) }),
        schema: MerchantPaymentStatusResponse,
        idempotent: true,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }

  /**
   * Cancels a pending payment nobody has paid (`POST /v1/merchant/payment/{paymentId}/cancel`), for an order
   * the customer no longer wants. Safe to retry, and retried: cancelling a cancelled payment answers it again.
   * Any other status gives `TillConflictError` `payment_not_cancellable`, whose `details.status` names it; a
   * payment that succeeded meanwhile is the order's to fulfil (and refund, if need be). The answer's status is
   * `cancelled`, or `failed` on API version 2026-02-18, whose merchant view has no `cancelled`.
   */
  async cancel(paymentId: string, options?: RequestOptions): Promise<TillResponse<CancelPaymentResponse>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('MerchantPayment_cancel', { paymentId: checkedPaymentId(paymentId) }),
        schema: CancelPaymentResponse,
        idempotent: true,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }
}
