import {
  appendPaymentId,
  fiatAmount,
  isFinalStatus,
  REDIRECT_COUNTDOWN_MS,
  type CheckoutPaid,
  type CheckoutSession,
  type CheckoutStatus,
  type CheckoutWallet,
} from '@till/contract'
import { networkName } from '../rails/index.ts'
import type { PaidDetails, PaymentRecord } from '../payments/index.ts'

/**
 * What the checkout page may see of a payment, and no more: no referenceId, partner, fees or settlement,
 * and the merchant's return URL only once the payment has ended (spec 4.7).
 */

/** Where the buyer goes when the payment has ended: decided here, from the stored URLs, never by the page. */
export function redirectTarget(payment: PaymentRecord): string | null {
  if (!isFinalStatus(payment.status) || !payment.redirectEnabled || !payment.successUrl || !payment.errorUrl) return null
  return appendPaymentId(payment.status === 'succeeded' ? payment.successUrl : payment.errorUrl, payment.id)
}

function paidView(paid: PaidDetails): CheckoutPaid {
  const network = { id: paid.network, name: networkName(paid.network) ?? paid.network }
  return {
    account: paid.buyerAccount,
    walletName: paid.buyerProviderName,
    network,
    transactionHash: paid.txHash,
    tokenAmount: paid.token
      ? {
          unit: `caip19/${paid.token.unit}`,
          value: paid.token.value.toString(),
          display: { assetSymbol: paid.token.symbol, assetName: paid.token.name, decimals: paid.token.decimals, networkName: network.name },
        }
      : null,
  }
}

export function checkoutStatus(payment: PaymentRecord, now: Date): CheckoutStatus {
  const url = redirectTarget(payment)
  return {
    status: payment.status,
    isFinal: isFinalStatus(payment.status),
    expiresAt: payment.expiresAt.toISOString(),
    serverTime: now.toISOString(),
    redirect: url === null ? null : { url, countdownMs: REDIRECT_COUNTDOWN_MS },
    paid: payment.paid ? paidView(payment.paid) : null,
  }
}

export function checkoutSession(input: {
  payment: PaymentRecord
  /** As the buyer sees it: the name, and Till's copy of the logo. */
  merchant: { name: string; iconUrl: string | null }
  wallets: readonly CheckoutWallet[]
  sandbox: boolean
  /** Paid on a local development chain: the page says so, not "sandbox". */
  localChain?: boolean
  now: Date
}): CheckoutSession {
  const { payment, merchant } = input
  return {
    paymentId: payment.id,
    merchant: { name: merchant.name, iconUrl: merchant.iconUrl },
    amount: fiatAmount(payment.currency, payment.amountMinor),
    sandbox: input.sandbox,
    ...(input.localChain ? { localChain: true } : {}),
    wallets: [...input.wallets],
    state: checkoutStatus(payment, input.now),
  }
}
