import { type ListingPaymentStatus, type Payment, PaymentListResponse } from '@till/contract'
import type { RequestOptions } from './config.ts'
import type { QueryValue, RequestCore } from './request.ts'
import { type TillResponse, withLastResponse } from './response.ts'

/** The listing's query (spec 4.1), named as on the wire. Timestamps may be Dates; `network` may be a list. */
export type PaymentListParams = {
  /** Inclusive; RFC 3339 with a time zone, or a Date (which holds milliseconds only). */
  startTs?: string | Date
  /** Exclusive. */
  endTs?: string | Date
  /** Token symbols (`USDC`), a union when several; never CAIP-19 ids. */
  token_symbol?: string | readonly string[]
  /** CAIP-2 chain ids; several are sent comma-separated. */
  network?: string | readonly string[]
  status?: ListingPaymentStatus | readonly ListingPaymentStatus[]
  /** Substring of the merchant's reference id: 3 to 35 of A-Z a-z 0-9, space and / - : . , + */
  referenceId?: string
  sortBy?: 'date' | 'amount'
  sortDir?: 'asc' | 'desc'
  /** 1 to 200 per page; 50 by default. */
  limit?: number
  /** Resume after the page that returned this `nextCursor`; with the same other parameters. */
  cursor?: string
}

export type PartnerPaymentListParams = PaymentListParams & {
  merchantId?: string | readonly string[]
}

export type PaymentListPage = TillResponse<PaymentListResponse>

/**
 * One page, when awaited; every matching payment, page after page, when iterated with `for await` (as
 * stripe-node's auto-pagination does). Iteration follows `nextCursor` until it is null, fetching a page
 * only when the previous one is used up; breaking out of the loop stops it.
 *
 * @example
 * const page = await till.payments.list({ status: ['succeeded'], limit: 100 });
 * page.stats.totalRevenue;
 * for await (const payment of till.payments.list({ status: ['succeeded'] })) console.log(payment.paymentId);
 */
export class PaymentList implements PromiseLike<PaymentListPage>, AsyncIterable<Payment> {
  readonly #fetch: (cursor: string | undefined) => Promise<PaymentListPage>
  readonly #cursor: string | undefined
  #first: Promise<PaymentListPage> | undefined

  constructor(fetch: (cursor: string | undefined) => Promise<PaymentListPage>, cursor: string | undefined) {
    this.#fetch = fetch
    this.#cursor = cursor
  }

  #firstPage(): Promise<PaymentListPage> {
    this.#first ??= this.#fetch(this.#cursor)
    return this.#first
  }

  // biome-ignore lint/suspicious/noThenProperty: awaiting the list is how one page is read, as with stripe-node
  then<A = PaymentListPage, B = never>(
    onFulfilled?: ((page: PaymentListPage) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPage().then(onFulfilled, onRejected)
  }

  /** Every page in turn, with its stats and response metadata. */
  async *pages(): AsyncGenerator<PaymentListPage> {
    let page = await this.#firstPage()
    for (;;) {
      yield page
      if (page.nextCursor === null) return
      page = await this.#fetch(page.nextCursor)
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Payment> {
    for await (const page of this.pages()) yield* page.data
  }
}

const instant = (value: string | Date | undefined) => (value instanceof Date ? value.toISOString() : value)

function toQuery(params: PartnerPaymentListParams, cursor: string | undefined): Record<string, QueryValue> {
  const network = params.network
  return {
    startTs: instant(params.startTs),
    endTs: instant(params.endTs),
    token_symbol: params.token_symbol,
    network: typeof network === 'string' || network === undefined ? network : network.join(','),
    status: params.status,
    referenceId: params.referenceId,
    merchantId: params.merchantId,
    sortBy: params.sortBy,
    sortDir: params.sortDir,
    limit: params.limit,
    cursor,
  }
}

/** A listing endpoint as a PaymentList: `merchantScoped` sends Merchant-Id (GET /v1/merchants/payments). */
export function paymentList(
  core: RequestCore,
  endpoint: { path: string; merchantScoped: boolean },
  params: PartnerPaymentListParams,
  options: RequestOptions | undefined,
): PaymentList {
  return new PaymentList(async (cursor) => {
    const { data, meta } = await core.request(
      {
        method: 'GET',
        path: endpoint.path,
        query: toQuery(params, cursor),
        schema: PaymentListResponse,
        idempotent: true,
        merchantScoped: endpoint.merchantScoped,
      },
      options,
    )
    return withLastResponse(data, meta)
  }, params.cursor)
}
