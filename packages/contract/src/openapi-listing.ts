// The listing's operations (spec 4.1): the partner's payments and one merchant's, with filters and statistics.
import type { z } from 'zod'
import { CAIP2_PATTERN } from './caip.ts'
import { PaymentListResponse, PaymentListStats, RevenueTotal } from './listing.ts'
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, REFERENCE_ID_FILTER_PATTERN } from './listing-query.ts'
import { type Json, ref } from './openapi-components.ts'
import type { OperationTexts } from './openapi-parts.ts'

/** A page of payments and its statistics; the payments themselves are shared (openapi-components.ts). */
export const LISTING_COMPONENTS: readonly z.ZodType[] = [RevenueTotal, PaymentListStats, PaymentListResponse]

function listQueryParameters(options: { merchantFilter: boolean } = { merchantFilter: true }): Json[] {
  const query = (name: string, schema: Json, description: string, extra: Json = {}): Json => ({
    name,
    in: 'query',
    required: false,
    description,
    schema,
    ...extra,
  })
  const repeated = { style: 'form', explode: true }
  return [
    query('startTs', { type: 'string', format: 'date-time' }, 'RFC 3339 timestamp with a time zone; inclusive.'),
    query('endTs', { type: 'string', format: 'date-time' }, 'RFC 3339 timestamp with a time zone; exclusive; must be later than startTs.'),
    query(
      'token_symbol',
      { type: 'array', items: { type: 'string', minLength: 1 } },
      'Token symbol filter; repeat for several. CAIP-19 ids are not supported.',
      repeated,
    ),
    query('asset', { type: 'string', minLength: 1 }, 'Deprecated: use token_symbol. Will be removed in a future API version.', {
      deprecated: true,
    }),
    query('network', { type: 'string' }, `CAIP-2 chain id; comma-separated for several. Each must match ${CAIP2_PATTERN.source}.`),
    query('sortBy', { type: 'string', enum: ['date', 'amount'], default: 'date' }, 'Sort key.'),
    query('sortDir', { type: 'string', enum: ['asc', 'desc'], default: 'desc' }, 'Sort direction.'),
    query('cursor', { type: 'string', minLength: 1 }, 'Opaque; the nextCursor of the previous page.'),
    query('limit', { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT }, 'Page size.'),
    query('status', { type: 'array', items: ref('ListingPaymentStatus') }, 'Status filter; repeat for several.', repeated),
    query(
      'referenceId',
      { type: 'string', minLength: 3, maxLength: 35, pattern: REFERENCE_ID_FILTER_PATTERN.source },
      'Substring search on the merchant reference id: ASCII letters, digits, space and / - : . , +',
    ),
    ...(options.merchantFilter
      ? [query('merchantId', { type: 'array', items: { type: 'string', minLength: 1 } }, 'Merchant filter; repeat for several.', repeated)]
      : []),
  ]
}

const LISTING_DESCRIPTION =
  'One keyset page of payments, newest first unless sortBy/sortDir say otherwise; ties are broken by paymentId, so a ' +
  'crawl never loses or repeats a payment, whatever is created or changes status between pages. `sortBy=amount` ' +
  "orders by the fiat amount in its currency's standard unit (12.50 USD before 13 JPY). `nextCursor` is signed " +
  'and bound to the query (credentials, filters, sort and Pay-Version; `limit` may change between pages); any other ' +
  'use gets 400 invalid_params. `stats` covers every matching payment, not only the page, and is computed when the ' +
  'first page is read: every page of one query reports the same figures. Errors: invalid_params when a parameter ' +
  'cannot be read (not a date, not a number, an unknown parameter), params_validation when a readable value breaks ' +
  'a rule (limit out of 1–200, endTs not after startTs, a CAIP-19 id as token_symbol, referenceId length or characters).'

export const LISTING_OPERATIONS: OperationTexts = {
  PartnerPayments_list: {
    summary: 'List payments with filters, pagination and statistics',
    description:
      `${LISTING_DESCRIPTION} With App-Id and Client-Id instead of Api-Key, only the payments that this client ` +
      'paid through that wallet app are listed, and stats cover those alone.',
    parameters: listQueryParameters(),
    responses: { 200: 'A page of payments.' },
  },
  MerchantPayments_list: {
    summary: "List one merchant's payments with filters, pagination and statistics",
    description: `The partner listing scoped to the merchant named by Merchant-Id; merchantId is not accepted. ${LISTING_DESCRIPTION}`,
    parameters: listQueryParameters({ merchantFilter: false }),
    responses: { 200: 'A page of payments.' },
  },
}
