import type { MerchantPaymentStatus } from '@till/contract'

/** A payment as Till stores it. Money stays bigint from the row to the wire. */
export type PaymentRecord = {
  id: string
  merchantId: string
  partnerId: string
  referenceId: string
  currency: string
  amountMinor: bigint
  successUrl: string | null
  errorUrl: string | null
  redirectEnabled: boolean
  status: MerchantPaymentStatus
  createdAt: Date
  updatedAt: Date
  expiresAt: Date
  paid: PaidDetails | null
  /** What succeeded refunds gave back (issue 24); null when nothing was refunded. */
  refunded?: { amountMinor: bigint; count: number } | null
}

/** What a buyer's payment leaves behind (listing fields of spec section 2.1). */
export type PaidDetails = {
  buyerAccount: string
  buyerProviderName: string | null
  buyerProviderIcon: string | null
  network: string
  txHash: string | null
  txNonce: bigint | null
  token: { unit: string; value: bigint; symbol: string; name: string; decimals: number } | null
  feeMinor: bigint | null
  feePercentage: string | null
  settlement: { settled: false } | { settled: true; amountMinor: bigint; txHash: string; settledAt: Date } | null
  /** The wallet app and client that paid, when known: the payment is listed to them (App-Id + Client-Id). */
  wallet?: { appId: string; clientId: string } | null
}

// Integers wider than 2^53 are selected as text, which node-postgres hands over as is: bigint in code,
// never a float on the way.
const COLUMNS = [
  'id',
  'merchant_id',
  'partner_id',
  'reference_id',
  'currency',
  'amount_minor::text AS amount_minor',
  'success_url',
  'error_url',
  'redirect_enabled',
  'status',
  'created_at',
  'updated_at',
  'expires_at',
  'buyer_account',
  'buyer_provider_name',
  'buyer_provider_icon',
  'network',
  'tx_hash',
  'tx_nonce::text AS tx_nonce',
  'token_unit',
  'token_value::text AS token_value',
  'token_symbol',
  'token_name',
  'token_decimals',
  'fee_minor::text AS fee_minor',
  'fee_percentage',
  'settled',
  'settlement_minor::text AS settlement_minor',
  'settlement_tx_hash',
  'settled_at',
  'refunded_minor::text AS refunded_minor',
  'refunded_count',
]

/** The select list of a PaymentRow, its columns qualified by `alias` when a query joins other tables. */
export const paymentColumns = (alias?: string): string => (alias ? COLUMNS.map((column) => `${alias}.${column}`) : COLUMNS).join(', ')

export const PAYMENT_COLUMNS = paymentColumns()

export type PaymentRow = {
  id: string
  merchant_id: string
  partner_id: string
  reference_id: string
  currency: string
  amount_minor: string
  success_url: string | null
  error_url: string | null
  redirect_enabled: boolean
  status: MerchantPaymentStatus
  created_at: Date
  updated_at: Date
  expires_at: Date
  buyer_account: string | null
  buyer_provider_name: string | null
  buyer_provider_icon: string | null
  network: string | null
  tx_hash: string | null
  tx_nonce: string | null
  token_unit: string | null
  token_value: string | null
  token_symbol: string | null
  token_name: string | null
  token_decimals: number | null
  fee_minor: string | null
  fee_percentage: string | null
  settled: boolean | null
  settlement_minor: string | null
  settlement_tx_hash: string | null
  settled_at: Date | null
  // The webhook trigger's snapshot may hold them as JSON numbers (events written before migration 0018 none).
  refunded_minor?: string | number | null
  refunded_count?: number | null
}

const big = (value: string | null) => (value === null ? null : BigInt(value))

export function toPaymentRecord(row: PaymentRow): PaymentRecord {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    partnerId: row.partner_id,
    referenceId: row.reference_id,
    currency: row.currency,
    amountMinor: BigInt(row.amount_minor),
    successUrl: row.success_url,
    errorUrl: row.error_url,
    redirectEnabled: row.redirect_enabled,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
    paid: row.buyer_account === null || row.network === null ? null : toPaid(row, row.buyer_account, row.network),
    refunded: row.refunded_count ? { amountMinor: BigInt(row.refunded_minor ?? 0), count: row.refunded_count } : null,
  }
}

function toPaid(row: PaymentRow, buyerAccount: string, network: string): PaidDetails {
  const token =
    row.token_unit && row.token_value !== null && row.token_symbol && row.token_name && row.token_decimals !== null
      ? {
          unit: row.token_unit,
          value: BigInt(row.token_value),
          symbol: row.token_symbol,
          name: row.token_name,
          decimals: row.token_decimals,
        }
      : null
  const settlement =
    row.settled === null
      ? null
      : row.settled && row.settlement_minor !== null && row.settlement_tx_hash && row.settled_at
        ? {
            settled: true as const,
            amountMinor: BigInt(row.settlement_minor),
            txHash: row.settlement_tx_hash,
            settledAt: row.settled_at,
          }
        : { settled: false as const }
  return {
    buyerAccount,
    buyerProviderName: row.buyer_provider_name,
    buyerProviderIcon: row.buyer_provider_icon,
    network,
    txHash: row.tx_hash,
    txNonce: big(row.tx_nonce),
    token,
    feeMinor: big(row.fee_minor),
    feePercentage: row.fee_percentage,
    settlement,
  }
}
