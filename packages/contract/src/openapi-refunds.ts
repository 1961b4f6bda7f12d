// The refunds' operations (issue 24, point 2): non-custodial refunds the buyer claims and the merchant's
// wallet pays, verified on chain (docs/decisions/0031-refunds-claimed-and-paid.md).
import type { z } from 'zod'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from './headers.ts'
import { type OperationTexts, pathParam } from './openapi-parts.ts'
import {
  CreateRefundRequest,
  MarkRefundedRequest,
  Refund,
  RefundIdParam,
  RefundList,
  RefundStatusSchema,
  RefundTransaction,
} from './refunds.ts'
import { RefundedTotal } from './listing.ts'

export const REFUND_COMPONENTS: readonly z.ZodType[] = [
  RefundIdParam,
  RefundStatusSchema,
  CreateRefundRequest,
  RefundTransaction,
  Refund,
  RefundList,
  MarkRefundedRequest,
  RefundedTotal,
]

const onRefund = [pathParam('refundId', 'RefundId', 'Refund identifier.')]

export const REFUND_OPERATIONS: OperationTexts = {
  Refunds_create: {
    summary: 'Refund a payment, or send back an unapplied transfer',
    description:
      'Till never holds a key: the refund is paid by the merchant’s own wallet and verified on chain. Name a succeeded ' +
      'payment (`paymentId`, with an `amount` in its fiat minor units, or all that is left) or an unapplied transfer ' +
      '(`unappliedTransferId`, refunded whole). The token amount is the payment’s own token on its network at its quoted ' +
      'rate. Without a `destination` the refund awaits the buyer, who names one at `claimUrl` (send them the link); ' +
      'with one it is ready, and `payUrl` is the merchant’s page for paying it. The refunds of a payment never add up to ' +
      'more than was paid (409 refund_exceeds_payment, enforced by the database under concurrency); a payment that did ' +
      'not succeed is 409 payment_not_refundable. Idempotency-Key is required, as on POST /v1/merchants: the same key ' +
      'and body within 24 hours replay the first answer, another body is 409 idempotency_conflict.',
    parameters: [
      {
        name: IDEMPOTENCY_KEY_HEADER,
        in: 'header',
        required: true,
        description: 'A unique value per refund (1 to 255 characters), kept for 24 hours per partner.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ],
    responses: {
      201: {
        description: 'Refund created, or the first answer to this Idempotency-Key replayed.',
        headers: {
          [IDEMPOTENT_REPLAYED_HEADER]: {
            description: 'Present with the value `true` when the answer is a replay of an earlier request with this key.',
            schema: { type: 'string', const: 'true' },
          },
        },
      },
    },
  },
  Refunds_list: {
    summary: "A payment's refunds, or an unapplied transfer's",
    description:
      'Name exactly one of paymentId and unappliedTransferId. Another merchant’s payment or transfer, or an unknown one, is ' +
      '404 payment_not_found or unapplied_transfer_not_found.',
    parameters: [
      {
        name: 'paymentId',
        in: 'query',
        required: false,
        description: 'The payment whose refunds to list.',
        schema: { type: 'string', minLength: 1 },
      },
      {
        name: 'unappliedTransferId',
        in: 'query',
        required: false,
        description: 'The unapplied transfer whose refunds to list: `<networkId>/<transaction hash>`.',
        schema: { type: 'string', minLength: 1 },
      },
    ],
    responses: { 200: 'The refunds, oldest first.' },
  },
  Refunds_get: {
    summary: 'Read a refund',
    parameters: onRefund,
    responses: { 200: 'The refund.' },
  },
  Refunds_markRefunded: {
    summary: 'Record a refund paid outside Till',
    description:
      'With `transactionHash`, the transfer is checked on chain (the refund’s token and exact token amount, to its ' +
      'destination, or to whoever received it when the buyer had not named one) and followed to its confirmations; a ' +
      'hash that does not check out is 400 params_validation naming transactionHash. Without it, the refund is recorded ' +
      'as succeeded on the merchant’s word. 409 refund_not_payable once its transaction is known or it ended.',
    parameters: onRefund,
    responses: { 200: 'The refund: submitted (with a hash) or succeeded.' },
  },
  Refunds_cancel: {
    summary: 'Cancel a refund before it is paid',
    description:
      'Only before its transaction is known (awaiting_destination or ready): its links stop working and what it held may ' +
      'be refunded again. A cancelled refund is answered again; any other status is 409 refund_not_cancellable.',
    parameters: onRefund,
    responses: { 200: 'The refund, cancelled.' },
  },
}
