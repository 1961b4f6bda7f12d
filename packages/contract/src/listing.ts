import { z } from 'zod'
import { Caip10 } from './caip.ts'
import { currencyByCode } from './currency.ts'
import { Amount, FiatAmount, TokenAmount } from './money.ts'
import { ListingPaymentStatus } from './status.ts'
import { isTerminalListingStatus } from './statuses.ts'

/** RFC 3339 / ISO 8601 date-time that names its offset (`Z` or `±hh:mm`); local times are ambiguous. */
export const DateTime = z.iso
  .datetime({ offset: true, error: 'must be an RFC 3339 date-time with a time zone, e.g. 2026-02-18T12:00:00Z' })
  .meta({ id: 'DateTime', description: 'RFC 3339 date-time with `Z` or a numeric offset.', examples: ['2026-02-18T12:00:00Z'] })

export const MerchantSummary = z
  .object({
    id: z.string().min(1),
    name: z.string().optional(),
    iconUrl: z.string().nullable().optional(),
  })
  .meta({ id: 'MerchantSummary', description: 'The merchant a listed payment belongs to.' })
export type MerchantSummary = z.infer<typeof MerchantSummary>

export const Buyer = z
  .object({
    accountCaip10: Caip10,
    accountProviderName: z.string().optional(),
    accountProviderIcon: z.string().optional(),
  })
  .meta({ id: 'Buyer', description: 'The paying account and its wallet provider.' })
export type Buyer = z.infer<typeof Buyer>

export const Transaction = z
  .object({
    networkId: z.string().regex(/^[0-9]+$/, { error: 'must be a numeric chain id' }),
    hash: z.string().optional(),
    nonce: z.int().min(0).optional(),
  })
  .meta({ id: 'Transaction', description: 'The on-chain payment transaction.' })
export type Transaction = z.infer<typeof Transaction>

export const Fees = z
  .object({
    total: Amount,
    fixed: Amount.optional(),
    percentage: z
      .string()
      .regex(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/, { error: 'must be a decimal percentage such as 0.4' })
      .optional()
      .meta({ description: 'Percentage, not a ratio: 0.4 percent is written "0.4".' }),
  })
  .meta({ id: 'Fees', description: 'Fees charged on a payment; omitted when the total is unknown.' })
export type Fees = z.infer<typeof Fees>

// Two closed shapes rather than one object with optional fields, so that "unsettled" can never carry a
// stale amount and "settled" can never lack one.
export const UnsettledSettlement = z
  .strictObject({ settled: z.literal(false) })
  .meta({ id: 'UnsettledSettlement', description: 'Not settled yet: no other field is present.' })

export const SettledSettlement = z
  .object({
    settled: z.literal(true),
    amount: Amount.meta({ description: 'Net amount after fees, in the settlement unit.' }),
    txHash: z.string().min(1),
  })
  .meta({ id: 'SettledSettlement', description: 'Settled: the net amount and the settlement transaction.' })

export const Settlement = z
  .discriminatedUnion('settled', [UnsettledSettlement, SettledSettlement])
  .meta({ id: 'Settlement', description: 'Settlement state of a payment.' })
export type Settlement = z.infer<typeof Settlement>

/** The listing's extension field: what was refunded of the payment (succeeded refunds). */
export const RefundedTotal = z
  .object({ amount: FiatAmount, count: z.int().min(1) })
  .meta({ id: 'RefundedTotal', description: 'What succeeded refunds gave back of the payment: their sum and their number.' })
export type RefundedTotal = z.infer<typeof RefundedTotal>

export const Payment = z
  .object({
    paymentId: z.string().min(1),
    merchant: MerchantSummary,
    referenceId: z.string(),
    status: ListingPaymentStatus,
    isTerminal: z.boolean(),
    fiatAmount: FiatAmount.optional(),
    tokenAmount: TokenAmount.optional(),
    buyer: Buyer.optional(),
    transaction: Transaction.optional(),
    fees: Fees.optional(),
    settlement: Settlement.optional(),
    createdAt: DateTime,
    lastUpdatedAt: DateTime,
    settledAt: DateTime.optional().meta({ description: 'Present only when settlement.settled is true.' }),
    refunded: RefundedTotal.optional().meta({
      description: 'An extension (issue 24): what succeeded refunds gave back of the payment. Absent when nothing was refunded.',
    }),
  })
  .superRefine((payment, ctx) => {
    const terminal = isTerminalListingStatus(payment.status)
    if (payment.isTerminal !== terminal) {
      ctx.addIssue({
        code: 'custom',
        path: ['isTerminal'],
        input: payment.isTerminal,
        message: `must be ${terminal} when status is ${payment.status}`,
      })
    }
    if (payment.settledAt !== undefined && payment.settlement?.settled !== true) {
      ctx.addIssue({
        code: 'custom',
        path: ['settledAt'],
        input: payment.settledAt,
        message: 'may be present only when settlement.settled is true',
      })
    }
  })
  .meta({
    id: 'Payment',
    description: 'A payment as listed to partners. isTerminal is true exactly for succeeded, failed, expired and cancelled.',
  })
export type Payment = z.infer<typeof Payment>

export const RevenueTotal = z
  .object({
    amount: z.number().meta({ description: "Sum in the currency's standard unit (e.g. 12.5 for USD 12.50)." }),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, { error: 'must be an upper-case three-letter ISO 4217 code' })
      .refine((code) => !/^[A-Z]{3}$/.test(code) || currencyByCode(code) !== undefined, {
        error: 'must be an accepted ISO 4217 currency code',
      }),
  })
  .meta({ id: 'RevenueTotal', description: 'Revenue of the matching payments in one currency.' })
export type RevenueTotal = z.infer<typeof RevenueTotal>

export const PaymentListStats = z
  .object({
    totalRevenue: z.array(RevenueTotal).meta({
      description:
        'One entry per currency in which a matching payment succeeded, ordered by currency code: the exact sum of the ' +
        "succeeded payments' fiat amounts, converted once to the currency's standard unit by its ISO 4217 exponent.",
    }),
    totalTransactions: z.int().min(0).meta({ description: 'Every payment matching the query, whatever its status.' }),
    totalCustomers: z
      .int()
      .min(0)
      .meta({ description: 'Distinct buyer accounts (CAIP-10, so one address on two chains counts twice) among the matching payments.' }),
  })
  .meta({ id: 'PaymentListStats', description: 'Aggregate statistics over every payment matching the query.' })
export type PaymentListStats = z.infer<typeof PaymentListStats>

export const PaymentListResponse = z
  .object({
    data: z.array(Payment),
    nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last page.' }),
    stats: PaymentListStats,
  })
  .meta({ id: 'PaymentListResponse', description: 'One page of payments with statistics for the whole query.' })
export type PaymentListResponse = z.infer<typeof PaymentListResponse>
