import { z } from 'zod'
import { Caip10 } from './caip.ts'
import { DateTime } from './listing.ts'
import { MAX_REDIRECT_URL_LENGTH, normalizeRedirectUrl } from './redirect-url.ts'

/** Spec 8.2. Dimensions in pixels; the service checks these when it fetches the logo. */
export const LOGO_RULES = {
  minSize: 500,
  recommendedSize: 1024,
  maxSize: 4096,
  /** Width / height may differ from 1 by at most this much. */
  aspectRatioTolerance: 0.05,
  maxBytes: 2 * 1024 * 1024,
  formats: ['jpeg', 'png', 'webp', 'avif'],
  transparentFormats: ['png', 'webp'],
} as const

export const MERCHANT_NAME_MAX_LENGTH = 256

export const MerchantStatus = z.enum(['active']).meta({ id: 'MerchantStatus', description: 'Merchant status.' })
export type MerchantStatus = z.infer<typeof MerchantStatus>

export const MerchantId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: 'must be 1 to 128 characters of A-Z, a-z, 0-9, _ and -' })
  .meta({ id: 'MerchantId', description: 'Merchant identifier, as returned when the merchant was created.' })
export type MerchantId = z.infer<typeof MerchantId>

// The name is shown to buyers on the wallet and checkout screens, so surrounding whitespace is
// dropped and control characters are refused.
const MerchantName = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(MERCHANT_NAME_MAX_LENGTH, { error: `must be at most ${MERCHANT_NAME_MAX_LENGTH} characters long` })
  .refine((s) => !/\p{Cc}/u.test(s), { error: 'must not contain control characters' })
  .meta({ description: 'Display name shown to buyers; surrounding whitespace is removed.' })

const MerchantEmail = z.email({ error: 'must be a valid e-mail address' }).max(254, { error: 'must be at most 254 characters long' })

// Only the syntax is checked here. Whether the host is public (loopback is allowed in sandbox), and the
// image's reachability, size and format (8.2), need the fetch and belong to the service.
export const LogoUrl = z
  .string()
  .max(MAX_REDIRECT_URL_LENGTH)
  .superRefine((url, ctx) => {
    const result = normalizeRedirectUrl(url, { allowLoopback: true })
    if (!result.ok) ctx.addIssue({ code: 'custom', input: url, message: result.reason })
  })
  .meta({
    id: 'LogoUrl',
    format: 'uri',
    description:
      'Public HTTPS URL of the merchant logo: square within 5 %, 500 to 4096 px a side (1024 recommended), JPEG, PNG, WebP or AVIF, ' +
      'at most 2 MB; transparency in PNG and WebP only. Till fetches it once, during the call, and serves its own copy: replacing ' +
      'the file at this address later changes nothing until the next PATCH.',
  })

// null removes the logo (the checkout page then shows the name's initial).
const IconUrlField = LogoUrl.nullable()

export const CreateMerchantRequest = z
  .object({ merchantName: MerchantName, merchantEmail: MerchantEmail, iconUrl: IconUrlField.optional() })
  .meta({ id: 'CreateMerchantRequest', description: 'Body of POST /v1/merchants. Unknown fields are ignored.' })
export type CreateMerchantRequest = z.infer<typeof CreateMerchantRequest>
export type CreateMerchantRequestInput = z.input<typeof CreateMerchantRequest>

/**
 * Where the merchant receives payments, one account per network (CAIP-10, an EIP-55 checksummed address):
 * buyers pay it directly, and Till never holds a key. The list replaces the previous one; [] clears it.
 */
const SettlementAddresses = z
  .array(Caip10)
  .max(64, { error: 'must name at most 64 accounts' })
  .superRefine((accounts, ctx) => {
    const seen = new Set<string>()
    accounts.forEach((account, index) => {
      const network = account.slice(0, account.lastIndexOf(':'))
      if (seen.has(network))
        ctx.addIssue({ code: 'custom', path: [index], input: account, message: `a second account on ${network}; give one per network` })
      seen.add(network)
    })
  })
  .meta({ description: 'The merchant’s receiving account per network, CAIP-10 with an EIP-55 checksummed address; replaces the list.' })

export const UpdateMerchantRequest = z
  .object({
    iconUrl: IconUrlField.optional(),
    merchantName: MerchantName.optional(),
    merchantEmail: MerchantEmail.optional(),
    settlementAddresses: SettlementAddresses.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: 'must contain at least one of iconUrl, merchantName, merchantEmail, settlementAddresses',
  })
  .meta({
    id: 'UpdateMerchantRequest',
    description: 'Body of PATCH /v1/merchants/{merchantId}: the fields to change, at least one.',
    minProperties: 1,
  })
export type UpdateMerchantRequest = z.infer<typeof UpdateMerchantRequest>
export type UpdateMerchantRequestInput = z.input<typeof UpdateMerchantRequest>

export const Merchant = z
  .object({
    id: MerchantId,
    name: z.string(),
    email: z.string(),
    status: MerchantStatus,
    createdAt: DateTime,
    iconUrl: z.string().nullable().meta({
      description: "Till's own copy of the logo, served with immutable caching; null when the merchant has none.",
    }),
    // A default, so a client reading a server from before receiving accounts existed still parses its merchants.
    settlementAddresses: z
      .array(z.string())
      .default([])
      .meta({ description: 'Where buyers pay the merchant, one CAIP-10 account per network.' }),
  })
  .meta({ id: 'Merchant', description: 'A merchant account.' })
export type Merchant = z.infer<typeof Merchant>

export const MerchantResponse = z
  .object({ merchant: Merchant })
  .meta({ id: 'MerchantResponse', description: 'Response of create and update merchant.' })
export type MerchantResponse = z.infer<typeof MerchantResponse>
