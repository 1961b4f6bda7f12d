import { randomUUID } from 'node:crypto'
import {
  type CreateMerchantRequestInput,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  MerchantResponse,
  UnappliedTransferList,
  type UpdateMerchantRequestInput,
} from '@till/contract'
import type { RequestOptions } from '../config.ts'
import type { RequestCore } from '../request.ts'
import { type TillResponse, withLastResponse } from '../response.ts'
import { endpoint } from '../params.ts'

/** A page of unapplied transfers: its size and where the previous page ended. */
export type UnappliedTransferListParams = {
  /** 1 to 200 per page; 50 by default. */
  limit?: number
  /** The `nextCursor` of the previous page. */
  cursor?: string
}

/** A merchant as the API returns it, and whether the answer replays an earlier create with the same key. */
export type CreatedMerchant = MerchantResponse & { replayed: boolean }

export type CreateMerchantOptions = RequestOptions & {
  /**
   * The create's Idempotency-Key (1 to 255 characters). Give your own (an onboarding record's id) to make
   * a create safe to repeat across processes; without one, a random key is made for this call and reused
   * by its own retries.
   */
  idempotencyKey?: string | undefined
}

/** Merchants of the partner (spec 4.5, 4.6). */
export class Merchants {
  readonly #core: RequestCore

  constructor(core: RequestCore) {
    this.#core = core
  }

  /**
   * Creates a merchant (`POST /v1/merchants`); its `merchant.id` is at once a `merchantId` for the
   * merchant checkout API. Retried on timeouts, broken connections, 429 and 5xx under one Idempotency-Key,
   * so a retry after a lost answer returns the same merchant (`replayed: true`). An `iconUrl` is fetched
   * and checked by the server during the call: a refused logo is a `TillInvalidRequestError` whose
   * `issues` say what was wrong.
   */
  async create(body: CreateMerchantRequestInput, options: CreateMerchantOptions = {}): Promise<TillResponse<CreatedMerchant>> {
    const { idempotencyKey = randomUUID(), ...requestOptions } = options
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('Merchants_create', {}),
        body,
        schema: MerchantResponse,
        idempotent: true,
        headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
      },
      requestOptions,
    )
    const replayed = meta.headers[IDEMPOTENT_REPLAYED_HEADER.toLowerCase()] === 'true'
    return withLastResponse({ ...data, replayed }, meta)
  }

  /**
   * Changes a merchant's name, e-mail or logo (`PATCH /v1/merchants/{merchantId}`); `iconUrl: null` removes
   * the logo. Retried like a GET: setting the same fields twice leaves the merchant as setting them once.
   * Another partner's merchant, or an unknown one, is a `TillNotFoundError`.
   */
  async update(merchantId: string, body: UpdateMerchantRequestInput, options?: RequestOptions): Promise<TillResponse<MerchantResponse>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('Merchants_update', { merchantId }),
        body,
        schema: MerchantResponse,
        idempotent: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }

  /**
   * One page of a merchant's unapplied transfers (`GET /v1/merchants/{merchantId}/unapplied-transfers`),
   * newest first: buyers' transfers that reached the merchant but paid no payment, each with its `reason`
   * (the payment had ended or was already paid, the amount was wrong, or no payment matched). The payment,
   * if any, keeps its status; refund each to its `from`. Pass the page's `nextCursor` as `cursor` for the
   * next one. Another partner's merchant, or an unknown one, is a `TillNotFoundError`.
   */
  async unappliedTransfers(
    merchantId: string,
    params: UnappliedTransferListParams = {},
    options?: RequestOptions,
  ): Promise<TillResponse<UnappliedTransferList>> {
    const query = {
      ...(params.limit === undefined ? {} : { limit: params.limit }),
      ...(params.cursor === undefined ? {} : { cursor: params.cursor }),
    }
    const { data, meta } = await this.#core.request(
      { ...endpoint('Merchants_unappliedTransfers', { merchantId }), query, schema: UnappliedTransferList, idempotent: true },
      options,
    )
    return withLastResponse(data, meta)
  }
}
