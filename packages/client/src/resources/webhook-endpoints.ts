import {
  type CreateWebhookEndpointRequest,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from '@till/contract'
import { z } from 'zod'
import type { RequestOptions } from '../config.ts'
import type { RequestCore } from '../request.ts'
import { type TillResponse, withLastResponse } from '../response.ts'
import { endpoint } from '../params.ts'

const Enabled = z.object({ endpoint: WebhookEndpoint })
const Queued = z.object({ queued: z.literal(true) })
const NoContent = z.unknown()

/**
 * The merchant's webhook endpoints (a documented extension of the spec): needs a `merchantId`, on the
 * client or per request. The signing secret is in the answers of `create` and `rotateSecret` only.
 */
export class WebhookEndpoints {
  readonly #core: RequestCore

  constructor(core: RequestCore) {
    this.#core = core
  }

  /** Registers an HTTPS endpoint on a public address; all event types unless `events` narrows them. */
  async create(body: CreateWebhookEndpointRequest, options?: RequestOptions): Promise<TillResponse<WebhookEndpointWithSecret>> {
    // Not retried once sent: a second endpoint would be registered. A refused URL is a TillInvalidRequestError.
    const { data, meta } = await this.#core.request(
      { ...endpoint('WebhookEndpoints_create', {}), body, schema: WebhookEndpointWithSecret, idempotent: false, merchantScoped: true },
      options,
    )
    return withLastResponse(data, meta)
  }

  async list(options?: RequestOptions): Promise<TillResponse<WebhookEndpointList>> {
    const { data, meta } = await this.#core.request(
      { ...endpoint('WebhookEndpoints_list', {}), schema: WebhookEndpointList, idempotent: true, merchantScoped: true },
      options,
    )
    return withLastResponse(data, meta)
  }

  async delete(endpointId: string, options?: RequestOptions): Promise<void> {
    await this.#core.request(
      { ...endpoint('WebhookEndpoints_delete', { endpointId }), schema: NoContent, idempotent: true, merchantScoped: true },
      options,
    )
  }

  /** A new secret; the old one keeps signing deliveries for 24 hours. */
  async rotateSecret(endpointId: string, options?: RequestOptions): Promise<TillResponse<WebhookEndpointWithSecret>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('WebhookEndpoints_rotateSecret', { endpointId }),
        schema: WebhookEndpointWithSecret,
        idempotent: false,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }

  async enable(endpointId: string, options?: RequestOptions): Promise<TillResponse<{ endpoint: WebhookEndpoint }>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('WebhookEndpoints_enable', { endpointId }),
        schema: Enabled,
        idempotent: true,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }

  /** The endpoint's latest deliveries, each with its event and every attempt. */
  async deliveries(endpointId: string, options?: RequestOptions): Promise<TillResponse<WebhookDeliveryList>> {
    const { data, meta } = await this.#core.request(
      {
        ...endpoint('WebhookEndpoints_deliveries', { endpointId }),
        schema: WebhookDeliveryList,
        idempotent: true,
        merchantScoped: true,
      },
      options,
    )
    return withLastResponse(data, meta)
  }

  async redeliver(endpointId: string, deliveryId: string, options?: RequestOptions): Promise<void> {
    await this.#core.request(
      {
        ...endpoint('WebhookEndpoints_redeliver', { endpointId, deliveryId }),
        schema: Queued,
        idempotent: true,
        merchantScoped: true,
      },
      options,
    )
  }
}
