import type { Queryable } from '../db/port.ts'
import type { Address } from './ids.ts'
import type { RateSource } from './quote.ts'

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
}

type QuoteRow = {
  option_id: string
  network: string
  token: string
  token_minor: string
  rate: string
  rate_source: RateSource
  rate_as_of: Date | null
  recipient: string
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
})

/**
 * A payment's quotes, fixed for its lifetime (issue 14): the first quote of each option is kept, whatever
 * the rates do afterwards, so the amount the page showed is the amount Till checks on chain. Concurrent
 * first calls agree: the insert that loses does nothing, and both read what the winner wrote.
 */
export function paymentQuotes(db: Queryable) {
  async function read(paymentId: string): Promise<StoredQuote[]> {
    const rows = await db.query<QuoteRow>(
      `SELECT option_id, network, token, token_minor::text AS token_minor, rate, rate_source, rate_as_of, recipient
         FROM payment_quotes WHERE payment_id = $1 ORDER BY created_at, option_id`,
      [paymentId],
    )
    return rows.map(toQuote)
  }

  return {
    read,
    async fix(paymentId: string, quotes: readonly StoredQuote[], now: Date): Promise<StoredQuote[]> {
      for (const quote of quotes) {
        await db.query(
          `INSERT INTO payment_quotes (payment_id, option_id, network, token, token_minor, rate, rate_source, rate_as_of, recipient, created_at)
           VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9, $10)
           ON CONFLICT (payment_id, option_id) DO NOTHING`,
          [
            paymentId,
            quote.optionId,
            quote.network,
            quote.token,
            quote.tokenMinor.toString(),
            quote.rate,
            quote.rateSource,
            quote.rateAsOf,
            quote.recipient,
            now,
          ],
        )
      }
      return read(paymentId)
    },
  }
}
export type PaymentQuotes = ReturnType<typeof paymentQuotes>
