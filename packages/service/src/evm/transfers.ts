import type { Queryable } from '../db/port.ts'
import type { Address } from './ids.ts'

/**
 * A transfer that pays its payment: what it moved, from whom to whom. One that checked out but paid nothing
 * (the payment had ended) is an unapplied transfer instead (unapplied.ts).
 */
export type Transfer = {
  network: string
  txHash: string
  paymentId: string
  merchantId: string
  sender: Address
  recipient: Address
  /** The ERC-20 contract. */
  token: Address
  amount: bigint
  blockNumber: bigint | null
  /**
   * How it was tied to its payment: the reference its calldata carries, or its unique exact amount (a wallet
   * that appends nothing); the follower checks it by the same (migration 0015).
   */
  matchedBy: 'reference' | 'amount'
}

/** A processing payment's transaction, followed until it has its network's confirmations. */
export type Watch = {
  paymentId: string
  network: string
  txHash: string
  /** The sender's nonce, which a replacement (a wallet's "speed up" or "cancel") uses too. */
  nonce: number
  /** The chain's height at submission. */
  fromBlock: bigint
  blockNumber: bigint | null
  /** Since when the transaction has not been in a block; null while it is mined. */
  unminedSince: Date | null
  transfer: Transfer
}

type TransferRow = {
  payment_id: string
  merchant_id: string
  network: string
  tx_hash: string
  block_number: string | null
  matched_by: 'reference' | 'amount'
  sender: string
  recipient: string
  token: string
  amount: string
}

type WatchRow = TransferRow & { nonce: string; from_block: string; unmined_since: Date | null }

const toTransfer = (row: TransferRow): Transfer => ({
  network: row.network,
  txHash: row.tx_hash,
  paymentId: row.payment_id,
  merchantId: row.merchant_id,
  sender: row.sender as Address,
  recipient: row.recipient as Address,
  token: row.token as Address,
  amount: BigInt(row.amount),
  blockNumber: row.block_number === null ? null : BigInt(row.block_number),
  matchedBy: row.matched_by,
})

const toWatch = (row: WatchRow): Watch => {
  const transfer = toTransfer(row)
  return {
    paymentId: transfer.paymentId,
    network: transfer.network,
    txHash: transfer.txHash,
    nonce: Number(row.nonce),
    fromBlock: BigInt(row.from_block),
    blockNumber: transfer.blockNumber,
    unminedSince: row.unmined_since,
    transfer,
  }
}

/** The EVM rail's records of transfers and of the confirmations it follows (migration 0011). */
export function evmTransfers(db: Queryable) {
  return {
    /**
     * Binds the transaction to its payment for good. False when the hash is already bound, to this payment
     * or another: the caller refuses the submission. Inside a transaction, a concurrent claim of the same
     * hash waits for this one's commit and then fails.
     */
    async bind(transfer: Transfer, now: Date, seenBy: 'page' | 'watcher'): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO evm_transfers (network, tx_hash, payment_id, merchant_id, sender, recipient, token, amount, block_number, recorded_at,
                                    matched_by, seen_by)
         VALUES ($1, lower($2), $3, $4, $5, $6, $7, $8::numeric, $9, $10, $11, $12)
         ON CONFLICT (network, tx_hash) DO NOTHING
         RETURNING tx_hash`,
        [
          transfer.network,
          transfer.txHash,
          transfer.paymentId,
          transfer.merchantId,
          transfer.sender,
          transfer.recipient,
          transfer.token,
          transfer.amount.toString(),
          transfer.blockNumber?.toString() ?? null,
          now,
          transfer.matchedBy,
          seenBy,
        ],
      )
      return rows.length === 1
    },

    /** The payment a transaction is bound to, if any. */
    async boundTo(network: string, txHash: string): Promise<string | undefined> {
      const [row] = await db.query<{ payment_id: string }>(
        'SELECT payment_id FROM evm_transfers WHERE network = $1 AND tx_hash = lower($2)',
        [network, txHash],
      )
      return row?.payment_id
    },

    async watch(input: Omit<Watch, 'unminedSince' | 'transfer'> & { now: Date }) {
      await db.query(
        `INSERT INTO evm_watches (payment_id, network, tx_hash, nonce, from_block, block_number, unmined_since, next_check_at, created_at)
         VALUES ($1, $2, lower($3), $4, $5, $6, CASE WHEN $6::bigint IS NULL THEN $7::timestamptz END, $7, $7)`,
        [
          input.paymentId,
          input.network,
          input.txHash,
          input.nonce,
          input.fromBlock.toString(),
          input.blockNumber?.toString() ?? null,
          input.now,
        ],
      )
    },

    /** A count of confirmations the follower saw, up to the network's requirement (a payment page's milestone). */
    async confirmed(input: { paymentId: string; txHash: string; confirmations: number; required: number; blockNumber: bigint; at: Date }) {
      await db.query(
        `INSERT INTO evm_confirmations (payment_id, tx_hash, confirmations, required, block_number, at)
         VALUES ($1, lower($2), $3, $4, $5, $6)
         ON CONFLICT DO NOTHING`,
        [
          input.paymentId,
          input.txHash,
          Math.min(input.confirmations, input.required),
          input.required,
          input.blockNumber.toString(),
          input.at,
        ],
      )
    },

    /**
     * The wallet replaced the watched transaction with another of the same nonce that pays the same way:
     * the replacement is bound to the payment (false when some payment already has it) and followed instead.
     */
    async rebind(watch: Watch, hash: string, now: Date): Promise<boolean> {
      // The follower found the replacement: Till saw it, not the page.
      if (!(await this.bind({ ...watch.transfer, txHash: hash, blockNumber: null }, now, 'watcher'))) return false
      await db.query('UPDATE evm_watches SET tx_hash = lower($2), block_number = NULL, next_check_at = $3 WHERE payment_id = $1', [
        watch.paymentId,
        hash,
        now,
      ])
      return true
    },

    /**
     * Leases up to `limit` due watches until `leaseUntil`: of several instances, each gets other rows, and
     * rows a crashed instance leased come due again when the lease runs out.
     */
    async lease(now: Date, leaseUntil: Date, limit: number, except: readonly string[] = []): Promise<Watch[]> {
      const rows = await db.query<WatchRow>(
        `WITH due AS (
           SELECT payment_id FROM evm_watches
            WHERE next_check_at <= $1 AND payment_id <> ALL ($4::text[])
            ORDER BY next_check_at
            LIMIT $3
              FOR UPDATE SKIP LOCKED
         )
         UPDATE evm_watches AS w SET next_check_at = $2
           FROM due, evm_transfers AS t
          WHERE w.payment_id = due.payment_id AND t.network = w.network AND t.tx_hash = w.tx_hash
         RETURNING w.payment_id, t.merchant_id, w.network, w.tx_hash, w.nonce::text AS nonce, w.from_block::text AS from_block,
                   w.block_number::text AS block_number, w.unmined_since,
                   t.sender, t.recipient, t.token, t.amount::text AS amount, t.matched_by`,
        [now, leaseUntil, limit, except],
      )
      return rows.map(toWatch)
    },

    /** The transaction was seen (in a block, or back in a mempool) or found missing; check it again at `next`. */
    async reschedule(input: { paymentId: string; blockNumber: bigint | null; unminedSince: Date | null; next: Date }) {
      await db.query('UPDATE evm_watches SET block_number = $2, unmined_since = $3, next_check_at = $4 WHERE payment_id = $1', [
        input.paymentId,
        input.blockNumber?.toString() ?? null,
        input.unminedSince,
        input.next,
      ])
    },

    async unwatch(paymentId: string) {
      await db.query('DELETE FROM evm_watches WHERE payment_id = $1', [paymentId])
    },

    async watching(): Promise<number> {
      const [row] = await db.query<{ count: string }>('SELECT count(*)::text AS count FROM evm_watches')
      return Number(row?.count ?? 0)
    },
  }
}

export type EvmTransfers = ReturnType<typeof evmTransfers>
