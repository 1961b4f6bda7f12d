import {
  type ApiVersion,
  type CancelPaymentResponse,
  fiatAmount,
  isFinalStatus,
  merchantViewStatus,
  toListingStatus,
  type CreatePaymentResponse,
  type MerchantPaymentStatusResponse,
  type Payment,
  type PaymentStatusResponse,
} from '@till/contract'
import { unixSeconds } from '../core/clock.ts'
import type { PaymentRecord } from './record.ts'

/** The wire shapes of a payment, each built from the one stored state. */

export function createPaymentResponse(
  payment: PaymentRecord,
  gatewayUrl: string,
  pollInMs: number,
  version: ApiVersion,
): CreatePaymentResponse {
  return {
    paymentId: payment.id,
    gatewayUrl,
    ...merchantStatusResponse(payment, version),
    expiresAt: unixSeconds(payment.expiresAt),
    pollInMs,
  }
}

/** The merchant view of `version`: on 2026-02-18 a cancelled payment reads `failed` (merchantViewStatus). */
export function merchantStatusResponse(payment: Pick<PaymentRecord, 'status'>, version: ApiVersion): MerchantPaymentStatusResponse {
  return { status: merchantViewStatus(payment.status, version), isFinal: isFinalStatus(payment.status) }
}

export function cancelPaymentResponse(payment: Pick<PaymentRecord, 'id' | 'status'>, version: ApiVersion): CancelPaymentResponse {
  return { paymentId: payment.id, ...merchantStatusResponse(payment, version) }
}

export function partnerStatusResponse(payment: Pick<PaymentRecord, 'id' | 'status'>): PaymentStatusResponse {
  return { paymentId: payment.id, status: toListingStatus(payment.status), isTerminal: isFinalStatus(payment.status) }
}

/** `merchant.iconUrl` is Till's copy of the logo (logoUrl), or null. */
export function listingPayment(payment: PaymentRecord, merchant: { id: string; name: string; iconUrl: string | null }): Payment {
  const paid = payment.paid
  const money = (value: bigint) => fiatAmount(payment.currency, value)
  const view: Payment = {
    paymentId: payment.id,
    merchant: { id: merchant.id, name: merchant.name, iconUrl: merchant.iconUrl },
    referenceId: payment.referenceId,
    status: toListingStatus(payment.status),
    isTerminal: isFinalStatus(payment.status),
    fiatAmount: money(payment.amountMinor),
    createdAt: payment.createdAt.toISOString(),
    lastUpdatedAt: payment.updatedAt.toISOString(),
  }
  if (payment.refunded) view.refunded = { amount: money(payment.refunded.amountMinor), count: payment.refunded.count }
  if (!paid) return view
  view.buyer = {
    accountCaip10: paid.buyerAccount,
    ...(paid.buyerProviderName ? { accountProviderName: paid.buyerProviderName } : {}),
    ...(paid.buyerProviderIcon ? { accountProviderIcon: paid.buyerProviderIcon } : {}),
  }
  view.transaction = {
    networkId: paid.network.split(':')[1] ?? paid.network,
    ...(paid.txHash ? { hash: paid.txHash } : {}),
    ...(paid.txNonce !== null ? { nonce: Number(paid.txNonce) } : {}),
  }
  if (paid.token) {
    view.tokenAmount = {
      unit: `caip19/${paid.token.unit}`,
      value: paid.token.value.toString(),
      display: { assetSymbol: paid.token.symbol, assetName: paid.token.name, decimals: paid.token.decimals },
    }
  }
  if (paid.feeMinor !== null) {
    view.fees = {
      total: money(paid.feeMinor),
      ...(paid.feePercentage ? { percentage: paid.feePercentage } : {}),
    }
  }
  if (paid.settlement) {
    view.settlement = paid.settlement.settled
      ? { settled: true, amount: money(paid.settlement.amountMinor), txHash: paid.settlement.txHash }
      : { settled: false }
    if (paid.settlement.settled) view.settledAt = paid.settlement.settledAt.toISOString()
  }
  return view
}
