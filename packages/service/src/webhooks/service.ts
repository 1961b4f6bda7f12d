import {
  type CreateWebhookEndpointRequest,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SECRET_GRACE_SECONDS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
} from '@till/contract'
import { randomBytes } from 'node:crypto'
import type { Database } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { ApiError, fieldError } from '../errors.ts'
import type { LogoUrl } from '../logos/index.ts'
import { type LookupAll, defaultLookup, pinnedConnections, TargetRefused } from '../net/pinned.ts'
import type { AddressPolicy } from '../net/public-address.ts'
import { webhookDeliveryStore } from './deliveries.ts'
import { type RefundSnapshotView, type TransferView, webhookEvent } from './events.ts'
import { newSigningSecret, type SecretSealer } from './secrets.ts'
import { type EndpointRecord, webhookEndpointStore } from './store.ts'

const RECENT_DELIVERIES = 100

export function endpointView(endpoint: EndpointRecord): WebhookEndpoint {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    status: endpoint.status,
    disabledReason: endpoint.disabledReason,
    createdAt: endpoint.createdAt.toISOString(),
  }
}

const endpointNotFound = (id: string) => new ApiError('webhook_endpoint_not_found', `No webhook endpoint ${id} for this merchant.`)

/** A merchant's webhook endpoints and their deliveries: the one home of these rules, for the API and the CLI. */
export function webhookService(deps: {
  db: Database
  clock: Clock
  sealer: SecretSealer
  logoUrl: LogoUrl
  transferView: TransferView
  /** How a refund.* event shows its refund, with its links (refunds/). */
  refundView?: RefundSnapshotView | undefined
  policy: AddressPolicy
  lookup?: LookupAll | undefined
}) {
  const endpoints = webhookEndpointStore(deps.db)
  const deliveries = webhookDeliveryStore(deps.db)

  async function found(merchantId: string, id: string): Promise<EndpointRecord> {
    const endpoint = await endpoints.find(merchantId, id)
    if (!endpoint) throw endpointNotFound(id)
    return endpoint
  }

  /** The SSRF guard of logos, once at registration (and again at every attempt). */
  async function checkUrl(url: string): Promise<void> {
    const connections = pinnedConnections({
      policy: deps.policy,
      lookup: deps.lookup ?? defaultLookup,
      connectTimeoutMs: 10_000,
      label: 'webhook URL',
    })
    try {
      await connections.check(new URL(url), AbortSignal.timeout(10_000))
    } catch (error) {
      if (error instanceof TargetRefused) throw fieldError('url', error.message)
      throw error
    } finally {
      connections.destroy()
    }
  }

  return {
    async create(input: {
      partnerId: string
      merchantId: string
      request: CreateWebhookEndpointRequest
    }): Promise<WebhookEndpointWithSecret> {
      await checkUrl(input.request.url)
      const secret = newSigningSecret()
      const endpoint = await endpoints.create({
        partnerId: input.partnerId,
        merchantId: input.merchantId,
        url: input.request.url,
        events: [...new Set(input.request.events ?? WEBHOOK_EVENT_TYPES)],
        secretSealed: deps.sealer.seal(secret),
        now: deps.clock.now(),
      })
      return { endpoint: endpointView(endpoint), secret }
    },

    async list(merchantId: string): Promise<WebhookEndpoint[]> {
      return (await endpoints.list(merchantId)).map(endpointView)
    },

    /** The endpoints with their latest delivery (the dashboard's Webhooks page). */
    async overview(merchantId: string) {
      const list = await endpoints.list(merchantId)
      const latest = await deliveries.latest(list.map((endpoint) => endpoint.id))
      return list.map((endpoint) => {
        const last = latest.get(endpoint.id)
        return { ...endpointView(endpoint), lastDelivery: last ? { at: last.at.toISOString(), status: last.status } : null }
      })
    },

    async remove(merchantId: string, id: string): Promise<void> {
      if (!(await endpoints.delete(merchantId, id, deps.clock.now()))) throw endpointNotFound(id)
    },

    /** A new secret; the old one keeps signing for 24 hours, so receivers can switch without losing events. */
    async rotate(merchantId: string, id: string): Promise<WebhookEndpointWithSecret> {
      const secret = newSigningSecret()
      const graceUntil = new Date(deps.clock.now().getTime() + WEBHOOK_SECRET_GRACE_SECONDS * 1000)
      const endpoint = await endpoints.rotate({ merchantId, id, secretSealed: deps.sealer.seal(secret), graceUntil })
      if (!endpoint) throw endpointNotFound(id)
      return { endpoint: endpointView(endpoint), secret }
    },

    async enable(merchantId: string, id: string): Promise<WebhookEndpoint> {
      const endpoint = await endpoints.enable({ merchantId, id, now: deps.clock.now() })
      if (!endpoint) throw endpointNotFound(id)
      return endpointView(endpoint)
    },

    async deliveries(merchantId: string, id: string): Promise<WebhookDelivery[]> {
      return (await this.log(merchantId, id)).map((delivery) => ({
        ...delivery,
        attempts: delivery.attempts.map(({ attemptedAt, statusCode, latencyMs, error }) => ({ attemptedAt, statusCode, latencyMs, error })),
      }))
    },

    /**
     * The endpoint's latest deliveries, each attempt with the request as it was sent (the dashboard's
     * Webhooks page); only those with a failed attempt, or of one event type, when asked.
     */
    async log(merchantId: string, id: string, filter: { failedOnly?: boolean; type?: string } = {}) {
      await found(merchantId, id)
      return (await deliveries.recent(id, RECENT_DELIVERIES, filter)).map((delivery) => ({
        id: delivery.id,
        status: delivery.status,
        nextAttemptAt: delivery.status === 'pending' && delivery.nextAttemptAt ? delivery.nextAttemptAt.toISOString() : null,
        event: webhookEvent({
          ...delivery.event,
          endpointId: id,
          merchant: delivery.merchant,
          logoUrl: deps.logoUrl,
          transferView: deps.transferView,
          refundView: deps.refundView,
        }),
        attempts: delivery.attempts.map((attempt) => ({ ...attempt, attemptedAt: attempt.attemptedAt.toISOString() })),
      }))
    },

    /** Sends the endpoint a signed test event (`ping`) now; no payment changes. The delivery's id. */
    async sendTest(partnerId: string, merchantId: string, id: string): Promise<string> {
      await found(merchantId, id)
      const eventId = `evt_${randomBytes(16).toString('hex')}`
      return deliveries.queuePing({ partnerId, merchantId, endpointId: id, eventId, now: deps.clock.now() })
    },

    /** Stops deliveries to the endpoint until it is enabled again; what was due waits (held). */
    async disable(merchantId: string, id: string, reason: string): Promise<WebhookEndpoint> {
      const endpoint = await endpoints.disable({ merchantId, id, reason })
      if (!endpoint) throw endpointNotFound(id)
      return endpointView(endpoint)
    },

    /** Sends a delivery again now, whatever became of it. */
    async redeliver(merchantId: string, id: string, deliveryId: string): Promise<void> {
      await found(merchantId, id)
      if (!(await deliveries.redeliver(id, deliveryId, deps.clock.now()))) {
        throw new ApiError('not_found', `No delivery ${deliveryId} of webhook endpoint ${id}.`)
      }
    },
  }
}

export type WebhookService = ReturnType<typeof webhookService>
