import type { UnappliedReason } from '@till/contract'
import type { Queryable } from '../db/port.ts'
import type { Address } from './ids.ts'

export type { UnappliedReason }

/**
 * A buyer's transfer to a merchant that paid no payment (issue 23, point 4), kept for the merchant to refund
 * to `sender` (migration 0014).
 */
export type UnappliedTransfer = {
  network: string
  txHash: string
  /** The Transfer log's index in its block; null when recorded from a posted hash not yet mined. */
  logIndex: number | null
  merchantId: string
  /** The payment it matched; null when it matched none. */
  paymentId: string | null
  reason: UnappliedReason
  sender: Address
  recipient: Address
  /** The ERC-20 contract. */
  token: Address
  amount: bigint
  blockNumber: bigint | null
}

export type RecordedUnappliedTransfer = UnappliedTransfer & { recordedAt: Date }

export type UnappliedPage = {
  /** Newest first. */
  transfers: RecordedUnappliedTransfer[]
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null
}

/** A cursor the store did not issue (altered, or from another list): the caller answers 400. */
export class UnappliedCursorError extends Error {
  constructor() {
    super('not a cursor of this list')
    this.name = 'UnappliedCursorError'
  }
}

type Row = {
  network: string
  tx_hash: string
  log_index: number | null
  merchant_id: string
  payment_id: string | null
  reason: UnappliedReason
  sender: string
  recipient: string
  token: string
  amount: string
  block_number: string | null
  recorded_at: Date
  recorded_at_text: string
}

const toTransfer = (row: Row): RecordedUnappliedTransfer => ({
  network: row.network,
  txHash: row.tx_hash,
  logIndex: row.log_index,
  merchantId: row.merchant_id,
  paymentId: row.payment_id,
  reason: row.reason,
  sender: row.sender as Address,
  recipient: row.recipient as Address,
  token: row.token as Address,
  amount: BigInt(row.amount),
  blockNumber: row.block_number === null ? null : BigInt(row.block_number),
  recordedAt: row.recorded_at,
})

/**
 * Where a page ended: the last row's instant (as PostgreSQL's exact text, microseconds included) and its
 * transaction. It only positions the merchant's own list, which the caller's credentials already decide, so
 * it needs no signature: an altered one that still reads merely starts the list elsewhere.
 */
type Position = [recordedAt: string, network: string, txHash: string]

const encodeCursor = (position: Position) => Buffer.from(JSON.stringify(position)).toString('base64url')

function decodeCursor(cursor: string): Position {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw new UnappliedCursorError()
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    parsed.every((part) => typeof part === 'string') &&
    !Number.isNaN(Date.parse(String(parsed[0]))) &&
    encodeCursor(parsed as Position) === cursor
  if (!valid) throw new UnappliedCursorError()
  return parsed as Position
}

const COLUMNS = `network, tx_hash, log_index, merchant_id, payment_id, reason, sender, recipient, token, amount::text AS amount,
  block_number::text AS block_number, recorded_at, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS recorded_at_text`

/** The unapplied transfers: recorded once each, listed a page at a time for their merchant. */
export function unappliedTransfers(db: Queryable) {
  return {
    /**
     * Records the transfer; false when its transaction is already recorded (by the checkout page's post or
     * by a chain watcher, whichever came first), which changes nothing. The insert's trigger queues the
     * `transfer.unapplied` webhook event in the same transaction.
     */
    async record(transfer: UnappliedTransfer, now: Date): Promise<boolean> {
      return (await this.recordMany([transfer], now)).size === 1
    },

    /**
     * Records many in one statement (a chain watcher's range); answers the hashes it recorded, the others
     * being already recorded (or paying a payment). Each row's triggers run as for one.
     */
    async recordMany(transfers: readonly UnappliedTransfer[], now: Date): Promise<Set<string>> {
      if (transfers.length === 0) return new Set()
      const rows = await db.query<{ tx_hash: string }>(
        `INSERT INTO evm_unapplied_transfers (network, tx_hash, log_index, merchant_id, payment_id, reason, sender, recipient, token,
                                              amount, block_number, recorded_at)
         SELECT network, lower(tx_hash), log_index, merchant_id, payment_id, reason, sender, recipient, token, amount, block_number, $12
           FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                       $10::numeric[], $11::bigint[])
             AS t (network, tx_hash, log_index, merchant_id, payment_id, reason, sender, recipient, token, amount, block_number)
         ON CONFLICT (network, tx_hash) DO NOTHING
         RETURNING tx_hash`,
        [
          transfers.map((transfer) => transfer.network),
          transfers.map((transfer) => transfer.txHash),
          transfers.map((transfer) => transfer.logIndex),
          transfers.map((transfer) => transfer.merchantId),
          transfers.map((transfer) => transfer.paymentId),
          transfers.map((transfer) => transfer.reason),
          transfers.map((transfer) => transfer.sender),
          transfers.map((transfer) => transfer.recipient),
          transfers.map((transfer) => transfer.token),
          transfers.map((transfer) => transfer.amount.toString()),
          transfers.map((transfer) => transfer.blockNumber?.toString() ?? null),
          now,
        ],
      )
      return new Set(rows.map((row) => row.tx_hash))
    },

    /** Which of these transactions on `network` are recorded, as lower-case hashes. */
    async recorded(network: string, txHashes: readonly string[]): Promise<Set<string>> {
      if (txHashes.length === 0) return new Set()
      const rows = await db.query<{ tx_hash: string }>(
        'SELECT tx_hash FROM evm_unapplied_transfers WHERE network = $1 AND tx_hash = ANY ($2::text[])',
        [network, txHashes.map((hash) => hash.toLowerCase())],
      )
      return new Set(rows.map((row) => row.tx_hash))
    },

    /** One of the merchant's unapplied transfers, by its network and hash (a refund's source). */
    async find(merchantId: string, network: string, txHash: string): Promise<RecordedUnappliedTransfer | undefined> {
      const [row] = await db.query<Row>(
        `SELECT ${COLUMNS} FROM evm_unapplied_transfers WHERE network = $1 AND tx_hash = $2 AND merchant_id = $3`,
        [network, txHash.toLowerCase(), merchantId],
      )
      return row && toTransfer(row)
    },

    /**
     * One page of the merchant's unapplied transfers, newest first. `cursor` is the previous page's
     * `nextCursor`; one this store did not issue throws UnappliedCursorError.
     */
    async page(merchantId: string, query: { limit: number; cursor?: string }): Promise<UnappliedPage> {
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
      const rows = await db.query<Row>(
        after
          ? `SELECT ${COLUMNS} FROM evm_unapplied_transfers
              WHERE merchant_id = $1 AND (recorded_at, network, tx_hash) < ($3::timestamptz, $4, $5)
              ORDER BY recorded_at DESC, network DESC, tx_hash DESC LIMIT $2`
          : `SELECT ${COLUMNS} FROM evm_unapplied_transfers
              WHERE merchant_id = $1
              ORDER BY recorded_at DESC, network DESC, tx_hash DESC LIMIT $2`,
        after ? [merchantId, query.limit + 1, ...after] : [merchantId, query.limit + 1],
      )
      const more = rows.length > query.limit
      const kept = more ? rows.slice(0, query.limit) : rows
      const last = kept.at(-1)
      return {
        transfers: kept.map(toTransfer),
        nextCursor: more && last ? encodeCursor([last.recorded_at_text, last.network, last.tx_hash]) : null,
      }
    },
  }
}

export type UnappliedTransfers = ReturnType<typeof unappliedTransfers>
