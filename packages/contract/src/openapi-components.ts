import { z } from 'zod'
import { Caip10, Caip19, Caip2, TokenUnit } from './caip.ts'
import { ErrorBody, ErrorCodeSchema, ErrorIssue } from './errors.ts'
import {
  Buyer,
  DateTime,
  Fees,
  MerchantSummary,
  Payment,
  SettledSettlement,
  Settlement,
  Transaction,
  UnsettledSettlement,
} from './listing.ts'
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
import { PaymentIdParam } from './payment.ts'
import { ListingPaymentStatus, MerchantPaymentStatus } from './status.ts'
import { ApiVersion } from './versions.ts'

export type Json = Record<string, unknown>

/**
 * The components no one area owns: the vocabulary (money, chain ids, versions, statuses, errors) and what
 * several areas answer. Each area's module lists its own (`LISTING_COMPONENTS` in openapi-listing.ts, …);
 * openapi.ts assembles them all into COMPONENT_SCHEMAS. Each schema carries `.meta({ id })`.
 */
export const SHARED_COMPONENTS: readonly z.ZodType[] = [
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
  // the payment path parameter: the merchant checkout API's and the sandbox's
  PaymentIdParam,
  // a payment as the listing, the webhook events and the sandbox answer it
  DateTime,
  MerchantSummary,
  Buyer,
  Transaction,
  Fees,
  UnsettledSettlement,
  SettledSettlement,
  Settlement,
  Payment,
]

export const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` })

function componentId(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id
  if (id === undefined) throw new Error('a component schema has no .meta({ id })')
  return id
}

function emit(components: readonly z.ZodType[], io: 'input' | 'output', rename: (id: string) => string): Record<string, Json> {
  const registry = z.registry<{ id: string }>()
  for (const schema of components) registry.add(schema, { id: componentId(schema) })
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
  if ('__shared' in schemas) throw new Error("a schema with an id is missing from COMPONENT_SCHEMAS: add it to its area's list")
  const out: Record<string, Json> = {}
  for (const [id, schema] of Object.entries(schemas)) {
    // Component schemas are embedded, not standalone documents.
    const { $schema: _dialect, $id: _id, ...rest } = schema as Json
    out[id] = rest
  }
  return out
}

/**
 * The components of the given schemas (COMPONENT_SCHEMAS, which openapi.ts assembles from the lists).
 * Requests are described as clients send them (`io: input`) and responses as the server sends them.
 * Where the two differ for one schema, the input side becomes `<Id>Input`.
 */
export function buildComponents(components: readonly z.ZodType[]): { schemas: Record<string, Json>; inputId: (id: string) => string } {
  const output = emit(components, 'output', (id) => id)
  const plainInput = emit(components, 'input', (id) => id)
  const differs = new Set(Object.keys(output).filter((id) => JSON.stringify(output[id]) !== JSON.stringify(plainInput[id])))
  const inputId = (id: string): string => (differs.has(id) ? `${id}Input` : id)
  const input = emit(components, 'input', inputId)
  const schemas: Record<string, Json> = { ...output }
  for (const id of differs) {
    const schema = input[id]
    if (schema !== undefined) schemas[`${id}Input`] = schema
  }
  return { schemas, inputId }
}
