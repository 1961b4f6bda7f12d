import { z } from 'zod'
import { Caip10 } from './caip.ts'
import { DateTime } from './listing.ts'
import { FiatAmount, PositiveMinorUnits, TokenAmount } from './money.ts'
import { REFUND_STATUSES } from './statuses.ts'

// Refunds (issue 24, point 2): non-custodial. Till never holds a key: the buyer (or the merchant) names where
// the money goes, the merchant's own wallet sends it, and Till verifies the transfer on chain as it verifies
// a payment (docs/decisions/0031-refunds-claimed-and-paid.md). An extension of the spec.

export const RefundStatusSchema = z.enum(REFUND_STATUSES).meta({
  id: 'RefundStatus',
  description:
    'awaiting_destination → ready → submitted → succeeded | failed; cancelled by the merchant before submitted. ' +
    'succeeded, failed and cancelled are final.',
})

/**
 * How long a refund's links work: the buyer's claim link from the refund's creation, the merchant's pay link from
 * when it got its destination. Coinbase Commerce and BTCPay give a buyer weeks to come back for a refund.
 */
export const REFUND_LINK_DAYS = 30

const RefundReason = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty; leave it out instead' })
  .max(500, { error: 'must be at most 500 characters long' })
  .meta({ description: "Why the refund is made, for the merchant's records; shown to the buyer on the claim page." })

export const CreateRefundRequest = z
  .strictObject({
    paymentId: z.string().min(1).optional().meta({ description: 'The succeeded payment to refund (part of).' }),
    unappliedTransferId: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'The unapplied transfer to send back, whole: `<networkId>/<transaction hash>`, as listed.' }),
    amount: PositiveMinorUnits.optional().meta({
      description:
        "In the payment's fiat minor units; what is left to refund when left out. An unapplied transfer is refunded whole, " +
        'so it takes no amount.',
    }),
    reason: RefundReason.optional(),
    destination: Caip10.optional().meta({
      description:
        "Where the refund goes: an EIP-55 checksummed account on the payment's network. When left out, the buyer gives it at " +
        '`claimUrl`.',
    }),
  })
  .superRefine((body, ctx) => {
    const named = [body.paymentId, body.unappliedTransferId].filter((value) => value !== undefined).length
    if (named !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['paymentId'],
        input: body.paymentId,
        message: 'name exactly one of paymentId and unappliedTransferId',
      })
    }
    if (body.unappliedTransferId !== undefined && body.amount !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        input: body.amount,
        message: 'an unapplied transfer is refunded whole: leave amount out',
      })
    }
  })
  .meta({ id: 'CreateRefundRequest', description: 'Body of POST /v1/refunds. Send an Idempotency-Key header.' })
export type CreateRefundRequest = z.infer<typeof CreateRefundRequest>
export type CreateRefundRequestInput = z.input<typeof CreateRefundRequest>

export const RefundTransaction = z
  .object({
    networkId: z.string().meta({ description: 'CAIP-2 network id.' }),
    hash: z.string(),
    from: Caip10.nullable().meta({ description: 'The account that sent it; null for a refund marked refunded without checking.' }),
  })
  .meta({ id: 'RefundTransaction', description: "The refund's transfer on chain." })

export const Refund = z
  .object({
    id: z.string(),
    paymentId: z.string().nullable().meta({ description: 'The payment refunded; null for an unapplied transfer that matched none.' }),
    unappliedTransferId: z.string().nullable().meta({ description: 'The unapplied transfer sent back, `<networkId>/<hash>`.' }),
    amount: FiatAmount.nullable().meta({
      description: "In the payment's currency; null for an unapplied transfer, which is refunded in its token alone.",
    }),
    tokenAmount: TokenAmount.meta({
      description: "What the merchant's wallet sends: the payment's token on its network, at the payment's own quoted rate.",
    }),
    status: RefundStatusSchema,
    reason: z.string().nullable(),
    destination: Caip10.nullable().meta({ description: 'Where the refund goes; null until the buyer names it at `claimUrl`.' }),
    claimUrl: z
      .string()
      .nullable()
      .meta({
        description: `The buyer's page for naming the destination: single-use, for ${REFUND_LINK_DAYS} days; null once used or not needed.`,
      }),
    payUrl: z
      .string()
      .nullable()
      .meta({
        description:
          "The merchant's page for paying it from the wallet that holds the funds: while the refund is ready (or waits for its " +
          `destination), for ${REFUND_LINK_DAYS} days from when it got its destination; null afterwards. Keep it to yourself: ` +
          'it is not for the buyer.',
      }),
    reference: z.string().meta({
      description: '16 bytes (hex) the refund transfer carries after its arguments, as a payment transfer carries its own.',
    }),
    transaction: RefundTransaction.nullable(),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Refund', description: "A refund of a payment or of an unapplied transfer, paid by the merchant's own wallet." })
export type Refund = z.infer<typeof Refund>

export const RefundList = z.object({ data: z.array(Refund) }).meta({ id: 'RefundList', description: "A payment's refunds, oldest first." })
export type RefundList = z.infer<typeof RefundList>

export const MarkRefundedRequest = z
  .strictObject({
    transactionHash: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be a transaction hash: 0x and 64 hexadecimal digits' })
      .optional()
      .meta({ description: 'The transfer that paid it; checked on chain like any refund transfer. Leave out to only record it.' }),
  })
  .meta({ id: 'MarkRefundedRequest', description: 'Body of POST /v1/refunds/{refundId}/mark-refunded.' })
export type MarkRefundedRequest = z.infer<typeof MarkRefundedRequest>

export const RefundIdParam = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: 'must be 1 to 128 characters of A-Z, a-z, 0-9, _ and -' })
  .meta({ id: 'RefundId', description: 'Refund identifier, `rfd_…`.' })
