import type { RefundStatus } from '@till/contract'

/** Which rail verifies a refund's transfer: an EVM network's RPC, or the sandbox's test wallets. */
export type RefundRailName = 'evm' | 'sandbox'

/** How a refund's transfer was tied to it: the reference it carries, its unique amount, or the merchant's word. */
export type RefundMatch = 'reference' | 'amount' | 'merchant'

/** A refund as Till stores it (migrations/0018_refunds.sql). Money stays bigint from the row to the wire. */
export type RefundRecord = {
  id: string
  partnerId: string
  merchantId: string
  paymentId: string | null
  unapplied: { network: string; txHash: string } | null
  rail: RefundRailName
  /** In the payment's fiat minor units; null for an unapplied transfer. */
  fiat: { currency: string; amountMinor: bigint } | null
  network: string
  token: { unit: string; symbol: string; name: string; decimals: number }
  tokenAmount: bigint
  status: RefundStatus
  reason: string | null
  destination: string | null
  reference: `0x${string}`
  claimExpiresAt: Date
  payExpiresAt: Date
  transaction: { hash: string; from: string | null; matchedBy: RefundMatch } | null
  blockNumber: bigint | null
  unminedSince: Date | null
  createdAt: Date
  updatedAt: Date
}

// Integers wider than 2^53 are selected as text; the webhook trigger's snapshot keeps them as text too.
export const REFUND_COLUMNS = [
  'id',
  'partner_id',
  'merchant_id',
  'payment_id',
  'unapplied_network',
  'unapplied_tx_hash',
  'rail',
  'currency',
  'amount_minor::text AS amount_minor',
  'network',
  'token_unit',
  'token_symbol',
  'token_name',
  'token_decimals',
  'token_amount::text AS token_amount',
  'status',
  'reason',
  'destination',
  'reference',
  'claim_expires_at',
  'pay_expires_at',
  'tx_hash',
  'tx_from',
  'matched_by',
  'block_number::text AS block_number',
  'unmined_since',
  'created_at',
  'updated_at',
].join(', ')

export type RefundRow = {
  id: string
  partner_id: string
  merchant_id: string
  payment_id: string | null
  unapplied_network: string | null
  unapplied_tx_hash: string | null
  rail: RefundRailName
  currency: string | null
  amount_minor: string | null
  network: string
  token_unit: string
  token_symbol: string
  token_name: string
  token_decimals: number
  token_amount: string
  status: RefundStatus
  reason: string | null
  destination: string | null
  reference: string
  claim_expires_at: Date | string
  pay_expires_at: Date | string
  tx_hash: string | null
  tx_from: string | null
  matched_by: RefundMatch | null
  block_number: string | null
  unmined_since: Date | string | null
  created_at: Date | string
  updated_at: Date | string
}

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value))

/** A row as selected, or as the webhook trigger's snapshot keeps it (timestamps as strings). */
export function toRefundRecord(row: RefundRow): RefundRecord {
  return {
    id: row.id,
    partnerId: row.partner_id,
    merchantId: row.merchant_id,
    paymentId: row.payment_id,
    unapplied: row.unapplied_network && row.unapplied_tx_hash ? { network: row.unapplied_network, txHash: row.unapplied_tx_hash } : null,
    rail: row.rail,
    fiat: row.currency && row.amount_minor !== null ? { currency: row.currency, amountMinor: BigInt(row.amount_minor) } : null,
    network: row.network,
    token: { unit: row.token_unit, symbol: row.token_symbol, name: row.token_name, decimals: row.token_decimals },
    tokenAmount: BigInt(row.token_amount),
    status: row.status,
    reason: row.reason,
    destination: row.destination,
    reference: row.reference as `0x${string}`,
    claimExpiresAt: date(row.claim_expires_at),
    payExpiresAt: date(row.pay_expires_at),
    transaction: row.tx_hash ? { hash: row.tx_hash, from: row.tx_from, matchedBy: row.matched_by ?? 'reference' } : null,
    blockNumber: row.block_number === null ? null : BigInt(row.block_number),
    unminedSince: row.unmined_since === null ? null : date(row.unmined_since),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  }
}
