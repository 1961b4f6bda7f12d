import type { Hex } from 'viem'
import type { Queryable } from '../db/port.ts'
import type { PaymentRecord } from '../payments/index.ts'
import type { TransferLog } from './chain-logs.ts'
import type { Address } from './ids.ts'
import { carriesCall, transferCall } from './reference.ts'
import type { UnappliedReason } from './unapplied.ts'

/** What the chain says of a candidate transaction: only what matching needs. */
export type CandidateTx = { from: Address; to: Address | null; input: Hex; nonce: number }

/** A quote a found transfer may pay: the payment's option on this network and token. */
export type QuoteRef = {
  paymentId: string
  optionId: string
  merchantId: string
  recipient: Address
  tokenMinor: bigint
  uniqueAmount: boolean
}

/** How one found transfer is applied. */
export type Match =
  | { kind: 'pays'; quote: QuoteRef; payment: PaymentRecord; matchedBy: 'reference' | 'amount' }
  | { kind: 'unapplied'; reason: UnappliedReason; paymentId: string | null; merchantId: string }

const SELECTOR_AND_ARGS_HEX = 2 + 8 + 128
const REFERENCE_HEX = 32

/**
 * The 16-byte reference a transfer carries, when the transaction is the plain `transfer(to, value)` of the
 * logged token followed by a reference (and maybe an ERC-8021 suffix): how the checkout page builds it.
 * A smart-contract wallet's call, or a wallet's bare transfer, carries none.
 */
export function referenceIn(tx: CandidateTx, log: TransferLog): Hex | undefined {
  if (tx.to?.toLowerCase() !== log.token || tx.input.length < SELECTOR_AND_ARGS_HEX + REFERENCE_HEX) return undefined
  const reference = `0x${tx.input.slice(SELECTOR_AND_ARGS_HEX, SELECTOR_AND_ARGS_HEX + REFERENCE_HEX)}` as Hex
  return carriesCall(tx.input, transferCall(log.to, log.value, reference)) ? (reference.toLowerCase() as Hex) : undefined
}

/** Why a transfer cannot pay a payment that is no longer pending. */
export function endedReason(status: PaymentRecord['status']): UnappliedReason {
  if (status === 'processing' || status === 'succeeded') return 'payment_already_paid'
  return status === 'cancelled' ? 'payment_cancelled' : 'payment_expired'
}

type QuoteRow = {
  payment_id: string
  option_id: string
  merchant_id: string
  recipient: string
  token_minor: string
  unique_amount: boolean
}
const toQuote = (row: QuoteRow): QuoteRef => ({
  paymentId: row.payment_id,
  optionId: row.option_id,
  merchantId: row.merchant_id,
  recipient: row.recipient as Address,
  tokenMinor: BigInt(row.token_minor),
  uniqueAmount: row.unique_amount,
})
const QUOTE_COLUMNS = 'q.payment_id, q.option_id, p.merchant_id, q.recipient, q.token_minor::text AS token_minor, q.unique_amount'

/** The lookups matching makes, each one indexed query for a whole batch of transfers. */
export function matchQueries(db: Queryable) {
  return {
    /**
     * The addresses the watcher looks for on `network`: each that a quote may still be paid to, or was in
     * the last day (payment_quotes_watched), with the merchant of its latest quote.
     */
    async watched(network: string, now: Date): Promise<Map<Address, string>> {
      const rows = await db.query<{ recipient: Address; merchant_id: string }>(
        `SELECT DISTINCT ON (q.recipient) q.recipient, p.merchant_id
           FROM payment_quotes q JOIN payments p ON p.id = q.payment_id
          WHERE q.network = $1 AND q.watch_until > $2
          ORDER BY q.recipient, q.created_at DESC`,
        [network, now],
      )
      return new Map(rows.map((row) => [row.recipient, row.merchant_id]))
    },

    /** Which of these transactions already pay a payment (evm_transfers' key). */
    async bound(network: string, hashes: readonly string[]): Promise<string[]> {
      if (hashes.length === 0) return []
      const rows = await db.query<{ tx_hash: string }>(
        'SELECT tx_hash FROM evm_transfers WHERE network = $1 AND tx_hash = ANY ($2::text[])',
        [network, hashes],
      )
      return rows.map((row) => row.tx_hash)
    },

    /** The quote of this token that each reference names (payment_quotes_reference). */
    async byReference(network: string, token: string, references: readonly Hex[]): Promise<Map<string, QuoteRef>> {
      if (references.length === 0) return new Map()
      const rows = await db.query<QuoteRow & { reference: string }>(
        `SELECT q.reference, ${QUOTE_COLUMNS}
           FROM payment_quotes q JOIN payments p ON p.id = q.payment_id
          WHERE q.reference = ANY ($1::text[]) AND q.network = $2 AND q.token = $3`,
        [references, network, token],
      )
      return new Map(rows.map((row) => [row.reference, toQuote(row)]))
    },

    /** The quote holding each exact amount at its recipient, while its slot is held (quote_amount_slots' key). */
    async byAmount(network: string, token: string, wanted: readonly { to: Address; value: bigint }[], now: Date) {
      if (wanted.length === 0) return new Map<string, QuoteRef>()
      const rows = await db.query<QuoteRow>(
        `SELECT ${QUOTE_COLUMNS}
           FROM unnest($3::text[], $4::numeric[]) AS w (recipient, token_minor)
           JOIN quote_amount_slots s ON s.network = $1 AND s.token = $2 AND s.recipient = w.recipient AND s.token_minor = w.token_minor
           JOIN payment_quotes q ON q.payment_id = s.payment_id AND q.network = s.network AND q.token = s.token
                                AND q.token_minor = s.token_minor AND q.unique_amount
           JOIN payments p ON p.id = q.payment_id
          WHERE s.held_until > $5`,
        [network, token, wanted.map((w) => w.to), wanted.map((w) => w.value.toString()), now],
      )
      return new Map(rows.map((row) => [`${row.recipient}:${row.token_minor}`, toQuote(row)]))
    },

    /** The payments still payable at each recipient in this token: a transfer near them had the wrong amount. */
    async openAt(network: string, token: string, recipients: readonly Address[], now: Date): Promise<Map<string, string[]>> {
      const open = new Map<string, string[]>()
      if (recipients.length === 0) return open
      const rows = await db.query<{ recipient: string; payment_id: string }>(
        `SELECT q.recipient, q.payment_id
           FROM payment_quotes q JOIN payments p ON p.id = q.payment_id
          WHERE q.network = $1 AND q.watch_until > $4 AND q.token = $2 AND q.recipient = ANY ($3::text[])
            AND p.status = 'pending' AND p.expires_at > $4`,
        [network, token, recipients, now],
      )
      for (const row of rows) open.set(row.recipient, [...(open.get(row.recipient) ?? []), row.payment_id])
      return open
    },
  }
}

/**
 * Decides what a found transfer does, reference first (it names one payment whatever the amount), then the
 * exact amount (only a quote made unique may be paid by amount), then why it pays nothing. `payment` reads
 * a payment with its deadline applied.
 */
export async function decide(
  input: {
    log: TransferLog
    reference: Hex | undefined
    byReference: QuoteRef | undefined
    byAmount: QuoteRef | undefined
    openHere: readonly string[]
    merchantId: string
  },
  payment: (id: string) => Promise<PaymentRecord | undefined>,
): Promise<Match> {
  const { log } = input
  const named = input.byReference ?? input.byAmount
  const matchedBy = input.byReference ? 'reference' : 'amount'
  if (named) {
    const record = await payment(named.paymentId)
    const merchantId = named.merchantId
    if (!record) return { kind: 'unapplied', reason: 'no_matching_payment', paymentId: null, merchantId }
    const exact = named.recipient === log.to && named.tokenMinor === log.value
    if (!exact) return { kind: 'unapplied', reason: 'amount_mismatch', paymentId: named.paymentId, merchantId }
    if (record.status !== 'pending') return { kind: 'unapplied', reason: endedReason(record.status), paymentId: record.id, merchantId }
    return { kind: 'pays', quote: named, payment: record, matchedBy }
  }
  const [only, ...others] = input.openHere
  if (only !== undefined) {
    return { kind: 'unapplied', reason: 'amount_mismatch', paymentId: others.length === 0 ? only : null, merchantId: input.merchantId }
  }
  return { kind: 'unapplied', reason: 'no_matching_payment', paymentId: null, merchantId: input.merchantId }
}
