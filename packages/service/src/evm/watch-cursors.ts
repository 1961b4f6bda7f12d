import type { Queryable } from '../db/port.ts'

/**
 * Each network's watcher cursor and lease (migration 0015). One instance at a time reads a network: it takes
 * the lease when it is free or run out, renews it on every pass, and moves the cursor only after the blocks
 * before it are handled, so a crash in the middle of a range reads that range again (handling a transfer
 * twice changes nothing: a hash is bound or recorded once).
 */
export function watchCursors(db: Queryable) {
  return {
    /**
     * Takes or renews `network`'s lease for `owner` until `until`; answers the first block not yet read, or
     * undefined while another instance holds the lease. A network read for the first time starts at `start`.
     */
    async lease(input: { network: string; owner: string; now: Date; until: Date; start: bigint }): Promise<bigint | undefined> {
      const rows = await db.query<{ next_block: string }>(
        `INSERT INTO evm_watch_cursors AS c (network, next_block, lease_owner, lease_until, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (network) DO UPDATE SET lease_owner = EXCLUDED.lease_owner, lease_until = EXCLUDED.lease_until
          WHERE c.lease_owner IS NULL OR c.lease_owner = EXCLUDED.lease_owner OR c.lease_until <= $5
         RETURNING next_block::text AS next_block`,
        [input.network, input.start.toString(), input.owner, input.until, input.now],
      )
      return rows[0] ? BigInt(rows[0].next_block) : undefined
    },

    /** Moves the cursor to `nextBlock` and renews the lease until `until`; false when `owner` lost the lease meanwhile (it must stop reading). */
    async advance(input: { network: string; owner: string; nextBlock: bigint; now: Date; until: Date }): Promise<boolean> {
      const rows = await db.query(
        `UPDATE evm_watch_cursors SET next_block = $3, updated_at = $4, lease_until = $5
          WHERE network = $1 AND lease_owner = $2 AND next_block <= $3
         RETURNING 1`,
        [input.network, input.owner, input.nextBlock.toString(), input.now, input.until],
      )
      return rows.length === 1
    },

    /** Gives the lease up (on stop), so another instance takes over at once rather than when it runs out. */
    async release(network: string, owner: string): Promise<void> {
      await db.query('UPDATE evm_watch_cursors SET lease_owner = NULL, lease_until = NULL WHERE network = $1 AND lease_owner = $2', [
        network,
        owner,
      ])
    },

    async position(network: string): Promise<bigint | undefined> {
      const [row] = await db.query<{ next_block: string }>(
        'SELECT next_block::text AS next_block FROM evm_watch_cursors WHERE network = $1',
        [network],
      )
      return row ? BigInt(row.next_block) : undefined
    },
  }
}

export type WatchCursors = ReturnType<typeof watchCursors>
