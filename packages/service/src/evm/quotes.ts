import type { Database, Queryable } from '../db/port.ts'
import { claimUniqueAmount, SLOT_HELD_AFTER_DEADLINE_MS } from './amount-slots.ts'
import type { Address } from './ids.ts'
import type { RateSource } from './quote.ts'
import { paymentReference } from './reference.ts'

/** What a buyer must send for one option of one payment, and the rate it was computed with. */
export type StoredQuote = {
  optionId: string
  /** CAIP-2. */
  network: string
  /** CAIP-19 of the ERC-20. */
  token: string
  tokenMinor: bigint
  rate: string
  rateSource: RateSource
  rateAsOf: Date | null
  /** The merchant's receiving address on the network when the quote was made. */
  recipient: Address
  /**
   * Whether no other payment that may still be paid to this address, token and network has this exact
   * amount: only then may a transfer without the payment's reference be matched by its amount.
   */
  uniqueAmount: boolean
}

/** A quote as worked out, before it is fixed: `room` is how many exact amounts it may take (amount-slots.ts). */
export type NewQuote = Omit<StoredQuote, 'uniqueAmount'> & { room: bigint }

type QuoteRow = {
  option_id: string
  network: string
  token: string
  token_minor: string
  rate: string
  rate_source: RateSource
  rate_as_of: Date | null
  recipient: string
  unique_amount: boolean
}

const toQuote = (row: QuoteRow): StoredQuote => ({
  optionId: row.option_id,
  network: row.network,
  token: row.token,
  tokenMinor: BigInt(row.token_minor),
  rate: row.rate,
  rateSource: row.rate_source,
  rateAsOf: row.rate_as_of,
  recipient: row.recipient as Address,
  uniqueAmount: row.unique_amount,
})

/**
 * A payment's quotes, fixed for its lifetime (issue 14): the first quote of each option is kept, whatever
 * the rates do afterwards, so the amount the page showed is the amount Till checks on chain. Its exact
 * amount is made unique for its address first (issue 23). Concurrent first calls for one payment take
 * turns on the payment's row: the second finds the first's quotes and claims nothing.
 */
export function paymentQuotes(db: Database) {
  async function read(paymentId: string, from: Queryable = db): Promise<StoredQuote[]> {
    const rows = await from.query<QuoteRow>(
      `SELECT option_id, network, token, token_minor::text AS token_minor, rate, rate_source, rate_as_of, recipient, unique_amount
         FROM payment_quotes WHERE payment_id = $1 ORDER BY created_at, option_id`,
      [paymentId],
    )
    return rows.map(toQuote)
  }

  async function insert(
    tx: Queryable,
    paymentId: string,
    quote: NewQuote,
    fixed: { tokenMinor: bigint; uniqueAmount: boolean; watchUntil: Date },
    now: Date,
  ) {
    const { tokenMinor, uniqueAmount } = fixed
    await tx.query(
      `INSERT INTO payment_quotes
         (payment_id, option_id, network, token, token_minor, rate, rate_source, rate_as_of, recipient, unique_amount, created_at,
          reference, watch_until)
       VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        paymentId,
        quote.optionId,
        quote.network,
        quote.token,
        tokenMinor.toString(),
        quote.rate,
        quote.rateSource,
        quote.rateAsOf,
        quote.recipient,
        uniqueAmount,
        now,
        paymentReference(paymentId),
        fixed.watchUntil,
      ],
    )
  }

  return {
    read: (paymentId: string) => read(paymentId),
    async fix(payment: { id: string; expiresAt: Date }, quotes: readonly NewQuote[], now: Date): Promise<StoredQuote[]> {
      const heldUntil = new Date(payment.expiresAt.getTime() + SLOT_HELD_AFTER_DEADLINE_MS)
      return db.transaction(async (tx) => {
        await tx.query('SELECT 1 FROM payments WHERE id = $1 FOR UPDATE', [payment.id])
        const fixed = new Set((await read(payment.id, tx)).map((quote) => quote.optionId))
        for (const quote of quotes) {
          if (fixed.has(quote.optionId)) continue
          const unique = await claimUniqueAmount(tx, {
            network: quote.network,
            token: quote.token,
            recipient: quote.recipient,
            base: quote.tokenMinor,
            room: quote.room,
            paymentId: payment.id,
            heldUntil,
            now,
          })
          // The address is watched as long as the slot is held: a late transfer still names this payment.
          await insert(
            tx,
            payment.id,
            quote,
            { tokenMinor: unique ?? quote.tokenMinor, uniqueAmount: unique !== undefined, watchUntil: heldUntil },
            now,
          )
        }
        return read(payment.id, tx)
      })
    },
  }
}
export type PaymentQuotes = ReturnType<typeof paymentQuotes>
