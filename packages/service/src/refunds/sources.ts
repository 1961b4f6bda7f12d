import type { Queryable } from '../db/port.ts'
import { ApiError, fieldError, paymentNotFound } from '../errors.ts'
import { paymentStore } from '../payments/index.ts'
import type { RefundRailName, RefundRecord } from './record.ts'
import { refundStore } from './store.ts'

/** What a refund is of, and what it pays: the part of a new refund its source decides. */
export type RefundSource = Pick<RefundRecord, 'paymentId' | 'unapplied' | 'rail' | 'fiat' | 'network' | 'token' | 'tokenAmount'>

/**
 * A refund of a succeeded payment, in its fiat minor units (all that is left when `amount` is not given). The
 * payment's row is locked first, so concurrent refunds of it are decided one after another; the trigger's
 * CHECK on what its refunds hold is the rule itself, should anything else write refunds.
 *
 * The token amount is at the payment's own rate, `amount × paid tokens ÷ paid fiat`, rounded down so that no
 * refund gives back more than its share; the refund that takes the rest of the fiat takes the rest of the
 * tokens, so the tokens refunded in full are exactly the tokens paid.
 */
export async function paymentSource(
  tx: Queryable,
  input: {
    partnerId: string
    merchantId: string
    paymentId: string
    amount: string | undefined
    /** The refund rail that knows the token on the network: the payment's own rail pays its refunds. */
    railOf: (network: string, tokenUnit: string) => RefundRailName | undefined
  },
): Promise<RefundSource> {
  const [locked] = await tx.query<{ merchant_id: string; partner_id: string; held: string }>(
    'SELECT merchant_id, partner_id, refund_held_minor::text AS held FROM payments WHERE id = $1 FOR UPDATE',
    [input.paymentId],
  )
  const payment = locked && (await paymentStore(tx).findById(input.paymentId))
  if (!locked || !payment || locked.merchant_id !== input.merchantId || locked.partner_id !== input.partnerId) {
    throw paymentNotFound(input.paymentId)
  }
  const token = payment.paid?.token
  if (payment.status !== 'succeeded' || !payment.paid || !token) {
    throw new ApiError('payment_not_refundable', `Payment ${payment.id} is ${payment.status}; only a succeeded payment can be refunded.`, {
      details: { status: payment.status },
    })
  }
  const refundable = payment.amountMinor - BigInt(locked.held)
  const amount = input.amount === undefined ? refundable : BigInt(input.amount)
  if (refundable <= 0n || amount > refundable) {
    throw new ApiError(
      'refund_exceeds_payment',
      refundable <= 0n
        ? `Payment ${payment.id} is refunded in full already.`
        : `Payment ${payment.id} has ${refundable} left to refund (in ${payment.currency} minor units); ${amount} is more.`,
      { details: { refundable: refundable.toString() } },
    )
  }
  const tokensLeft = token.value - (await refundStore(tx).tokenHeld(payment.id))
  const tokenAmount = amount === refundable ? tokensLeft : (amount * token.value) / payment.amountMinor
  if (tokenAmount <= 0n) {
    throw fieldError('amount', `is less than one unit of ${token.symbol} at the payment's rate; refund more`)
  }
  const rail = input.railOf(payment.paid.network, token.unit)
  if (!rail) {
    throw new ApiError(
      'payment_not_refundable',
      `Payment ${payment.id} was paid in a token this server no longer pays out; refund it outside Till.`,
      {
        details: { status: payment.status },
      },
    )
  }
  return {
    paymentId: payment.id,
    unapplied: null,
    rail,
    fiat: { currency: payment.currency, amountMinor: amount },
    network: payment.paid.network,
    token: { unit: token.unit, symbol: token.symbol, name: token.name, decimals: token.decimals },
    tokenAmount,
  }
}
