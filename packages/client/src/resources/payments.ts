import { PaymentStatusResponse } from '@till/contract'
import type { RequestOptions } from '../config.ts'
import { type PartnerPaymentListParams, type PaymentList, paymentList } from '../list.ts'
import { checkedPaymentId, endpoint } from '../params.ts'
import type { RequestCore } from '../request.ts'
import { type TillResponse, withLastResponse } from '../response.ts'

/** The partner's view of payments, across all its merchants: `Api-Key` only, no `Merchant-Id`. */
export class Payments {
  readonly #core: RequestCore

  constructor(core: RequestCore) {
    this.#core = core
  }

  /**
   * The partner's payments across all its merchants (`GET /v1/payments`, spec 4.1): await it for one page
   * with `stats` over the whole query, or iterate it with `for await` for every matching payment.
   */
  list(params: PartnerPaymentListParams = {}, options?: RequestOptions): PaymentList {
    return paymentList(this.#core, { path: endpoint('PartnerPayments_list', {}).path, merchantScoped: false }, params, options)
  }

  /**
   * The payment's status in the partner (listing) view (`GET /v1/payments/{paymentId}/status`, spec 4.4):
   * `status` is a listing status (`requires_action` where the merchant view says `pending`) and
   * `isTerminal` tells whether it can still change.
   */
  async status(paymentId: string, options?: RequestOptions): Promise<TillResponse<PaymentStatusResponse>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('PartnerPayments_status', { paymentId: checkedPaymentId(paymentId) }),
        schema: PaymentStatusResponse,
        idempotent: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }
}
