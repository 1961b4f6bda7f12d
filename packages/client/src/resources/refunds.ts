import { randomUUID } from 'node:crypto'
import {
  type CreateRefundRequestInput,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  type MarkRefundedRequest,
  Refund,
  RefundList,
} from '@till/contract'
import type { RequestOptions } from '../config.ts'
import { checkedPaymentId, checkedRefundId, endpoint } from '../params.ts'
import type { RequestCore } from '../request.ts'
import { type TillResponse, withLastResponse } from '../response.ts'

/** The body of a create: the contract's request, with `amount` also accepted as a bigint. */
export type CreateRefundParams = Omit<CreateRefundRequestInput, 'amount'> & {
  /**
   * In the payment's fiat minor units, as a decimal string (`'500'` is 5.00 EUR) or a bigint; never a float.
   * Left out, it is all that is left to refund. An unapplied transfer is refunded whole and takes none.
   */
  amount?: string | bigint | undefined
}

/** A created refund, and whether the answer replays an earlier create with the same Idempotency-Key. */
export type CreatedRefund = Refund & {
  /**
   * True when the server answered with the refund an earlier create under this Idempotency-Key made
   * (`Idempotent-Replayed: true`) rather than making one. It can be true for a refund this very call made,
   * when a first attempt reached the server but its answer was lost and the retry found it.
   */
  replayed: boolean
}

export type CreateRefundOptions = RequestOptions & {
  /**
   * The create's Idempotency-Key (1 to 255 characters). Give your own (say `refund-<order>-<n>`) to make a
   * create safe to repeat across processes; without one, a random key is made for this call and reused by
   * its own retries. The same key with another body is a `TillConflictError` `idempotency_conflict`.
   */
  idempotencyKey?: string | undefined
}

/** Which refunds to list: those of one payment. */
/** Whose refunds are listed, oldest first: a payment's, or an unapplied transfer's (`<networkId>/<hash>`). */
export type RefundListParams = { paymentId: string } | { unappliedTransferId: string }

/**
 * Refunds of the merchant's payments and unapplied transfers (an extension of the spec; docs/cancel-and-refund.md):
 * needs a `merchantId`, on the client or per request. Till holds no key, so a refund is claimed by the buyer
 * at its `claimUrl` and paid by the merchant's own wallet at its `payUrl`; Till checks the transfer on chain.
 * A refund id is checked with the contract's `RefundIdParam` before anything is sent (a `TypeError` otherwise);
 * one the merchant does not have is a `TillNotFoundError` `refund_not_found`.
 */
export class Refunds {
  readonly #core: RequestCore

  constructor(core: RequestCore) {
    this.#core = core
  }

  /**
   * Refunds a succeeded payment, in whole or in part, or sends an unapplied transfer back whole
   * (`POST /v1/refunds`). The refund starts `awaiting_destination` with a `claimUrl` for the buyer, or
   * `ready` when the body names its `destination`.
   *
   * Retried on timeouts, broken connections, 429 and 5xx under one Idempotency-Key, so a retry after a lost
   * answer returns the same refund (`replayed: true`). A payment that did not succeed gives
   * `TillConflictError` `payment_not_refundable` (`details.status` names its status); an amount above what is
   * left, `refund_exceeds_payment` (`details.refundable` is what is left). An unknown payment is a
   * `TillNotFoundError` `payment_not_found`, an unknown transfer `unapplied_transfer_not_found`. The body is
   * not validated here: the server's 400 (`TillInvalidRequestError`) names each field in `issues`.
   */
  async create(body: CreateRefundParams, options: CreateRefundOptions = {}): Promise<TillResponse<CreatedRefund>> {
    const { idempotencyKey = randomUUID(), ...requestOptions } = options
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('Refunds_create', {}),
        body,
        schema: Refund,
        idempotent: true,
        merchantScoped: true,
        headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
      },
      requestOptions,
    )
    const replayed = meta.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()] === 'true'
    return withLastResponse({ ...data, replayed }, meta)
  }

  /** One refund (`GET /v1/refunds/{refundId}`); an unknown one is a `TillNotFoundError` `refund_not_found`. */
  async get(refundId: string, options?: RequestOptions): Promise<TillResponse<Refund>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('Refunds_get', { refundId: checkedRefundId(refundId) }),
        schema: Refund,
        idempotent: true,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }

  /**
   * A payment's refunds, or an unapplied transfer's, oldest first, whatever their status
   * (`GET /v1/refunds?paymentId=…` or `?unappliedTransferId=…`), in `data`. An unknown payment is a
   * `TillNotFoundError` `payment_not_found`; an unknown transfer, `unapplied_transfer_not_found`.
   */
  async list(params: RefundListParams, options?: RequestOptions): Promise<TillResponse<RefundList>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('Refunds_list', {}),
        query:
          'unappliedTransferId' in params
            ? { unappliedTransferId: params.unappliedTransferId }
            : { paymentId: checkedPaymentId(params?.paymentId) },
        schema: RefundList,
        idempotent: true,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }

  /**
   * Records a refund the merchant paid some other way (`POST /v1/refunds/{refundId}/mark-refunded`). With a
   * `transactionHash` Till checks the transfer on chain like any refund transfer and the refund is
   * `submitted` (a hash that does not check out is a `TillInvalidRequestError` naming `transactionHash`);
   * without one it is `succeeded` on the merchant's word alone. Once its transaction is known, or it ended,
   * this is `TillConflictError` `refund_not_payable` (`details.status` names its status).
   *
   * Not retried once the server may have seen it: a repeat would meet the refund already marked, and answer
   * `refund_not_payable`. After a timeout, `get` the refund to see where it stands.
   */
  async markRefunded(refundId: string, body: MarkRefundedRequest = {}, options?: RequestOptions): Promise<TillResponse<Refund>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('Refunds_markRefunded', { refundId: checkedRefundId(refundId) }),
        body,
        schema: Refund,
        idempotent: false,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }

  /**
   * Calls a refund off before it is submitted (`POST /v1/refunds/{refundId}/cancel`): its links stop working
   * and what it held of the payment can be refunded again. Safe to retry, and retried: cancelling a cancelled
   * refund answers it again. Any status past `ready` gives `TillConflictError` `refund_not_cancellable`
   * (`details.status` names it).
   */
  async cancel(refundId: string, options?: RequestOptions): Promise<TillResponse<Refund>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('Refunds_cancel', { refundId: checkedRefundId(refundId) }),
        schema: Refund,
        idempotent: true,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }
}
