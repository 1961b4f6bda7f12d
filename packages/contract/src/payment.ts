import { z } from 'zod'
import { CreatePaymentAmount } from './money.ts'
import { ListingPaymentStatus, MerchantPaymentStatus, refineIsFinal } from './status.ts'
import { isTerminalListingStatus } from './statuses.ts'

export const REFERENCE_ID_MAX_LENGTH = 255

const CONTROL_CHARACTER = /\p{Cc}/u
const EDGE_WHITESPACE = /^\s|\s$/

const codePoints = (s: string): number => [...s].length

// Invalid redirect settings only switch redirects off (spec 4.2), so a wrong type must not fail the
// request: each field, and the object itself, falls back to "absent".
export const CheckoutConfig = z
  .object({
    successUrl: z.string().optional().catch(undefined).meta({ description: 'HTTPS URL the buyer is sent to after success.' }),
    errorUrl: z.string().optional().catch(undefined).meta({ description: 'HTTPS URL the buyer is sent to after failure.' }),
  })
  .meta({
    id: 'CheckoutConfig',
    description:
      'Redirect configuration. Unless both URLs are valid HTTPS URLs, redirecting is disabled for the payment; ' +
      'an invalid value never fails the request.',
  })
export type CheckoutConfig = z.infer<typeof CheckoutConfig>

export const ReferenceId = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .refine((s) => codePoints(s) <= REFERENCE_ID_MAX_LENGTH, {
    error: `must be at most ${REFERENCE_ID_MAX_LENGTH} characters long`,
  })
  .refine((s) => !CONTROL_CHARACTER.test(s), { error: 'must not contain control characters' })
  // Trimming silently would make two different referenceIds collide; refusing makes the mistake visible.
  .refine((s) => !EDGE_WHITESPACE.test(s), { error: 'must not start or end with whitespace' })
  .meta({
    id: 'ReferenceId',
    description:
      "Merchant's own order or reference id: 1 to 255 characters (Unicode code points), no control characters, no leading or trailing whitespace.",
    maxLength: REFERENCE_ID_MAX_LENGTH,
    examples: ['order-2026-0001'],
  })

export const CreatePaymentRequest = z
  .object({
    amount: CreatePaymentAmount,
    referenceId: ReferenceId,
    checkout: CheckoutConfig.optional().catch(undefined),
  })
  .meta({
    id: 'CreatePaymentRequest',
    description: 'Body of POST /v1/merchant/payment. Unknown fields are ignored.',
  })
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequest>
export type CreatePaymentRequestInput = z.input<typeof CreatePaymentRequest>

export const CreatePaymentResponse = z
  .object({
    paymentId: z.string().min(1),
    gatewayUrl: z.url({ protocol: /^https?$/ }).meta({ description: 'Address of the hosted checkout page for this payment.' }),
    status: MerchantPaymentStatus,
    expiresAt: z.int().min(0).meta({ description: 'Unix timestamp in seconds when the payment expires.' }),
    isFinal: z.boolean(),
    pollInMs: z.int().min(0).meta({ description: 'Suggested status polling interval in milliseconds.' }),
  })
  .superRefine(refineIsFinal)
  .meta({ id: 'CreatePaymentResponse', description: 'A merchant-created payment.' })
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponse>

export const MerchantPaymentStatusResponse = z
  .object({ status: MerchantPaymentStatus, isFinal: z.boolean() })
  .superRefine(refineIsFinal)
  .meta({ id: 'MerchantPaymentStatusResponse', description: 'Status of a payment in the merchant view.' })
export type MerchantPaymentStatusResponse = z.infer<typeof MerchantPaymentStatusResponse>

export const CancelPaymentResponse = z
  .object({ paymentId: z.string().min(1), status: MerchantPaymentStatus, isFinal: z.boolean() })
  .superRefine(refineIsFinal)
  .meta({
    id: 'CancelPaymentResponse',
    description:
      'The cancelled payment in the merchant view: `cancelled`, or `failed` on 2026-02-18, whose merchant view has no ' +
      '`cancelled` (spec section 3).',
  })
export type CancelPaymentResponse = z.infer<typeof CancelPaymentResponse>

export const PaymentStatusResponse = z
  .object({ paymentId: z.string().min(1), status: ListingPaymentStatus, isTerminal: z.boolean() })
  .superRefine((value, ctx) => {
    if (value.isTerminal === isTerminalListingStatus(value.status)) return
    ctx.addIssue({
      code: 'custom',
      path: ['isTerminal'],
      input: value.isTerminal,
      message: `must be ${isTerminalListingStatus(value.status)} when status is ${value.status}`,
    })
  })
  .meta({
    id: 'PaymentStatusResponse',
    description: 'Status of a payment in the partner (listing) view, as returned by GET /v1/payments/{paymentId}/status.',
  })
export type PaymentStatusResponse = z.infer<typeof PaymentStatusResponse>

export const PaymentIdParam = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: 'must be 1 to 128 characters of A-Z, a-z, 0-9, _ and -' })
  .meta({ id: 'PaymentId', description: 'Payment identifier as returned at creation.' })
export type PaymentIdParam = z.infer<typeof PaymentIdParam>
