// Unique exact amounts (issue 23, point 2; migrations/0013_unique_amounts.sql). The quote's amount is raised
// by the fewest smallest units, in the digits below a hundredth of the token (for 6-decimal USDC, by at most
// 0.009999), until no other payment that may still be paid to the same address, token and network has it.
// It is never lowered: the buyer pays the quote or a hair more, never less.
import type { Queryable } from '../db/port.ts'

/** A slot is held this long after its payment's deadline: a late transfer still names one payment. */
export const SLOT_HELD_AFTER_DEADLINE_MS = 24 * 60 * 60 * 1000
// Each lost race re-reads the taken amounts; this many losses in a row means the address is too busy.
const MAX_ATTEMPTS = 20

/** How many exact amounts an option may take, from its quote up: every value below a hundredth of the token. */
export function amountRoom(decimals: number): bigint {
  return decimals > 2 ? 10n ** BigInt(decimals - 2) : 1n
}

export type AmountClaim = {
  network: string
  token: string
  recipient: string
  /** The quote, in the token's smallest unit: the lowest amount the claim may take. */
  base: bigint
  room: bigint
  paymentId: string
  heldUntil: Date
  now: Date
}

/** The lowest amount from `from` up, within the room, that `taken` does not hold. */
function lowestFree(from: bigint, room: bigint, taken: ReadonlySet<bigint>): bigint | undefined {
  for (let offset = 0n; offset < room; offset++) if (!taken.has(from + offset)) return from + offset
  return undefined
}

/**
 * Takes the lowest free amount for the claim, or answers undefined when none is free (the option is then
 * payable with the reference only). Run inside the quote's transaction: the slot and the quote commit
 * together. A concurrent claim of the same amount waits for ours, finds it taken, and takes the next.
 */
export async function claimUniqueAmount(tx: Queryable, claim: AmountClaim): Promise<bigint | undefined> {
  const key = [claim.network, claim.token, claim.recipient.toLowerCase()]
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const held = await tx.query<{ token_minor: string }>(
      `SELECT token_minor::text AS token_minor
         FROM quote_amount_slots
        WHERE network = $1 AND token = $2 AND recipient = $3
          AND token_minor >= $4::numeric AND token_minor < $5::numeric
          AND held_until > $6`,
      [...key, claim.base.toString(), (claim.base + claim.room).toString(), claim.now],
    )
    const amount = lowestFree(claim.base, claim.room, new Set(held.map((row) => BigInt(row.token_minor))))
    if (amount === undefined) return undefined
    const won = await tx.query(
      `INSERT INTO quote_amount_slots (network, token, recipient, token_minor, payment_id, held_until)
       VALUES ($1, $2, $3, $4::numeric, $5, $6)
       ON CONFLICT (network, token, recipient, token_minor) DO UPDATE
          SET payment_id = EXCLUDED.payment_id, held_until = EXCLUDED.held_until
        WHERE quote_amount_slots.held_until <= $7
       RETURNING 1`,
      [...key, amount.toString(), claim.paymentId, claim.heldUntil, claim.now],
    )
    if (won.length > 0) return amount
  }
  return undefined
}
