import { z } from 'zod'
import { BridgeMessage } from './bridge.ts'
import { Caip10, Caip19, Caip2, TokenUnit } from './caip.ts'
import { ErrorBody, ErrorCodeSchema, ErrorIssue } from './errors.ts'
import { LateTransfer, LateTransferList } from './late-transfers.ts'
import {
  Buyer,
  DateTime,
  Fees,
  MerchantSummary,
  Payment,
  PaymentListResponse,
  PaymentListStats,
  RevenueTotal,
  SettledSettlement,
  Settlement,
  Transaction,
  UnsettledSettlement,
} from './listing.ts'
import {
  CreateMerchantRequest,
  LogoUrl,
  Merchant,
  MerchantId,
  MerchantResponse,
  MerchantStatus,
  UpdateMerchantRequest,
} from './merchant.ts'
import {
  Amount,
  AmountDisplay,
  CreatePaymentAmount,
  FiatAmount,
  FiatUnit,
  MinorUnits,
  PositiveMinorUnits,
  TokenAmount,
  TokenAmountDisplay,
} from './money.ts'
import {
  CheckoutConfig,
  CreatePaymentRequest,
  CreatePaymentResponse,
  MerchantPaymentStatusResponse,
  PaymentIdParam,
  PaymentStatusResponse,
  ReferenceId,
} from './payment.ts'
import { SimulateOutcome, SimulatePaymentRequest } from './sandbox.ts'
import { ListingPaymentStatus, MerchantPaymentStatus } from './status.ts'
import { ApiVersion } from './versions.ts'
import { AppId, PayingWallet, WalletClientId } from './wallet-app.ts'
import {
  CreateWebhookEndpointRequest,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointStatus,
  WebhookEndpointWithSecret,
  WebhookEvent,
  WebhookEventType,
} from './webhooks.ts'

export type Json = Record<string, unknown>

/** Every schema that becomes a component; each carries `.meta({ id })`. */
export const COMPONENT_SCHEMAS: readonly z.ZodType[] = [
  // money and chain ids
  MinorUnits,
  PositiveMinorUnits,
  FiatUnit,
  AmountDisplay,
  FiatAmount,
  TokenAmountDisplay,
  TokenAmount,
  Amount,
  CreatePaymentAmount,
  Caip2,
  Caip10,
  Caip19,
  TokenUnit,
  // versions, statuses, errors
  ApiVersion,
  MerchantPaymentStatus,
  ListingPaymentStatus,
  ErrorCodeSchema,
  ErrorIssue,
  ErrorBody,
  // merchant checkout API
  CheckoutConfig,
  ReferenceId,
  CreatePaymentRequest,
  CreatePaymentResponse,
  MerchantPaymentStatusResponse,
  PaymentStatusResponse,
  PaymentIdParam,
  // partner listing
  DateTime,
  MerchantSummary,
  Buyer,
  Transaction,
  Fees,
  UnsettledSettlement,
  SettledSettlement,
  Settlement,
  Payment,
  RevenueTotal,
  PaymentListStats,
  PaymentListResponse,
  // merchants, WebView bridge, sandbox
  MerchantStatus,
  MerchantId,
  LogoUrl,
  CreateMerchantRequest,
  UpdateMerchantRequest,
  Merchant,
  MerchantResponse,
  LateTransfer,
  LateTransferList,
  BridgeMessage,
  SimulateOutcome,
  AppId,
  WalletClientId,
  PayingWallet,
  SimulatePaymentRequest,
  // webhooks (an extension: spec section 6 leaves them "not shown")
  WebhookEventType,
  WebhookEvent,
  CreateWebhookEndpointRequest,
  WebhookEndpointStatus,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEndpointList,
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryList,
]

export const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` })

function componentId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id
  if (id === undefined) throw new Error('a component schema has no .meta({ id })')
  return id
}

function emit(io: 'input' | 'output', rename: (id: string) => string): Record<string, Json> {
  const registry = z.registry<{ id: string }>()
  for (const schema of COMPONENT_SCHEMAS) registry.add(schema, { id: componentId(schema) })
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${rename(id)}`,
    // zod marks every output object closed because parsing strips unknown keys; responses must stay
    // open so that adding a field later does not break clients. Strict objects stay closed.
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def
      if (def.type === 'object' && def.catchall === undefined) delete jsonSchema.additionalProperties
    },
  })
  if ('__shared' in schemas) throw new Error('a schema with an id is missing from COMPONENT_SCHEMAS')
  const out: Record<string, Json> = {}
  for (const [id, schema] of Object.entries(schemas)) {
    // Component schemas are embedded, not standalone documents.
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json
    out[id] = rest
  }
  return out
}

/**
 * Requests are described as clients send them (`io: input`) and responses as the server sends them.
 * Where the two differ for one schema, the input side becomes `<Id>Input`.
 */
export function buildComponents(): { schemas: Record<string, Json>; inputId: (id: string) => string } {
  const output = emit('output', (id) => id)
  const plainInput = emit('input', (id) => id)
  const differs = new Set(Object.keys(output).filter((id) => JSON.stringify(output[id]) !== JSON.stringify(plainInput[id])))
  const inputId = (id: string): string => (differs.has(id) ? `${id}Input` : id)
  const input = emit('input', inputId)
  const schemas: Record<string, Json> = { ...output }
  for (const id of differs) {
    const schema = input[id]
    if (schema !== undefined) schemas[`${id}Input`] = schema
  }
  return { schemas, inputId }
}
