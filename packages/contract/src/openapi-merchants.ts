// The merchants' operations (spec 4.5, 4.6): create, update with a logo, and the unapplied transfers to refund.
import type { z } from 'zod'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './headers.ts'
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from './listing-query.ts'
import {
  CreateMerchantRequest,
  LogoUrl,
  Merchant,
  MerchantId,
  MerchantResponse,
  MerchantStatus,
  UpdateMerchantRequest,
} from './merchant.ts'
import { type OperationTexts, pathParam } from './openapi-parts.ts'
import { UnappliedReason, UnappliedTransfer, UnappliedTransferList } from './unapplied-transfers.ts'

export const MERCHANT_COMPONENTS: readonly z.ZodType[] = [
  MerchantStatus,
  MerchantId,
  LogoUrl,
  CreateMerchantRequest,
  UpdateMerchantRequest,
  Merchant,
  MerchantResponse,
  UnappliedReason,
  UnappliedTransfer,
  UnappliedTransferList,
]

const IDEMPOTENCY_DESCRIPTION =
  'Idempotency-Key is required (400 missing_idempotency_key without it, 400 invalid_idempotency_key when it is empty or ' +
  'over 255 characters): the same key with the same body within 24 hours replays the ' +
  'first 201 with `Idempotent-Replayed: true`, and concurrent requests with one key create one merchant; the same key ' +
  'with another body is 409 idempotency_conflict. A refused request keeps nothing, so it may be corrected and retried ' +
  'with the same key.'

const LOGO_DESCRIPTION =
  'An iconUrl is fetched once during the call (HTTPS, public addresses only, at most 3 redirects, 10 s, 2 MB) and checked ' +
  '(JPEG, PNG, WebP or AVIF by content; 500 to 4096 px a side; square within 5 %). Any refusal is 400 params_validation ' +
  'with an issue on iconUrl saying what was wrong. The accepted image is re-encoded and served by Till at its own URL, ' +
  "which becomes the merchant's iconUrl."

export const MERCHANT_OPERATIONS: OperationTexts = {
  Merchants_create: {
    summary: 'Create a merchant',
    description:
      'Creates a merchant of the calling partner; its id is at once a valid Merchant-Id for the merchant checkout API. ' +
      `${IDEMPOTENCY_DESCRIPTION} ${LOGO_DESCRIPTION}`,
    parameters: [
      {
        name: IDEMPOTENCY_KEY_HEADER,
        in: 'header',
        required: true,
        description: 'A unique value per creation request (1 to 255 characters), kept for 24 hours per partner.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ],
    responses: {
      201: {
        description: 'Merchant created, or the first answer to this Idempotency-Key replayed.',
        headers: {
          [IDEMPOTENT_REPLAYED_HEADER]: {
            description: 'Present with the value `true` when the answer is a replay of an earlier request with this key.',
            schema: { type: 'string', const: 'true' },
          },
        },
      },
    },
  },
  Merchants_update: {
    summary: 'Update a merchant (a new iconUrl changes the logo)',
    description:
      'Changes any of merchantName, merchantEmail and iconUrl (null removes the logo); at least one is needed. ' +
      `A refused change changes nothing. Another partner's merchant, or an unknown one, is 404 merchant_not_found. ${LOGO_DESCRIPTION}`,
    parameters: [pathParam('merchantId', 'MerchantId', 'Merchant identifier.')],
    responses: { 200: 'Merchant updated.' },
  },
  Merchants_unappliedTransfers: {
    summary: "A merchant's unapplied transfers, to refund",
    description:
      'Buyers’ transfers that reached the merchant but paid no payment (an extension, like BTCPay’s "paid late" and ' +
      '"paid partially"): the payment had ended or was already paid by another transaction, the amount was not the ' +
      "payment's, or no payment matched at all. `reason` says which; the payment, if any, keeps its status, and the " +
      'merchant sends the amount back to `from`. Each transaction is listed once; the `transfer.unapplied` webhook event ' +
      'announces each as it is recorded. One keyset page, newest first; pass `nextCursor` as `cursor` for the next ' +
      '(a cursor that was not issued by this list is 400 invalid_params). Errors: invalid_params when a parameter cannot ' +
      'be read or is unknown, params_validation when limit is outside 1–200. Another partner’s merchant, or an unknown ' +
      'one, is 404 merchant_not_found.',
    parameters: [
      pathParam('merchantId', 'MerchantId', 'Merchant identifier.'),
      {
        name: 'cursor',
        in: 'query',
        required: false,
        description: 'Opaque; the nextCursor of the previous page.',
        schema: { type: 'string', minLength: 1 },
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        description: 'Page size.',
        schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT },
      },
    ],
    responses: { 200: 'One page of the unapplied transfers.' },
  },
}
