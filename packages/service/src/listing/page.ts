import type { Payment } from '@till/contract'
import type { Queryable } from '../db/port.ts'
import type { LogoUrl } from '../logos/index.ts'
import { listingPayment, paymentColumns, type PaymentRow, toPaymentRecord } from '../payments/index.ts'
import type { CursorPosition } from './cursor.ts'
import { type ListingFilter, paymentConditions, SqlParams } from './filter.ts'

export type ListingSort = { by: 'date' | 'amount'; dir: 'asc' | 'desc' }

/** `more`: rows go on past the page in the direction read (before its first row, when read backward). */
export type Page = { payments: Payment[]; first: CursorPosition | undefined; last: CursorPosition | undefined; more: boolean }

// Timestamps leave PostgreSQL as text with microseconds: a JS Date would cut them to milliseconds, and a
// cursor holding a truncated instant would skip or repeat the rows of that millisecond.
const utcText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

// Both keys are immutable (a payment's creation time and amount never change), so a status change or an
// insert between two pages never moves a row across a cursor.
const SORT_KEY = { date: { column: 'p.created_at', type: 'timestamptz' }, amount: { column: 'p.amount_major', type: 'numeric' } } as const

type PageRow = PaymentRow & {
  merchant_name: string
  merchant_logo: string | null
  created_text: string
  updated_text: string
  settled_text: string | null
  sort_value: string
}

/** Six digits when the instant has them, else milliseconds, as toISOString writes it. */
export const isoText = (text: string): string => text.replace(/(\.[0-9]{3})000Z$/, '$1Z')

/**
 * One keyset page: the rows after `after` in the sort order, ties broken by id, never an OFFSET. Read
 * `backward`, it is the rows just before `after`, read in the opposite order and handed back in the sort's.
 */
export async function readPage(
  db: Queryable,
  input: { filter: ListingFilter; sort: ListingSort; limit: number; after?: CursorPosition; backward?: boolean; logoUrl: LogoUrl },
): Promise<Page> {
  const params = new SqlParams()
  const where = paymentConditions(input.filter, params)
  const key = SORT_KEY[input.sort.by]
  const descending = (input.sort.dir === 'desc') !== (input.backward === true)
  const dir = descending ? 'DESC' : 'ASC'
  if (input.after) {
    where.push(
      `(${key.column}, p.id) ${descending ? '<' : '>'} (${params.add(input.after.value)}::${key.type}, ${params.add(input.after.id)})`,
    )
  }
  const rows = await db.query<PageRow>(
    `SELECT ${paymentColumns('p')},
            m.name AS merchant_name, m.logo_digest AS merchant_logo,
            ${utcText('p.created_at')} AS created_text, ${utcText('p.updated_at')} AS updated_text,
            ${utcText('p.settled_at')} AS settled_text,
            ${input.sort.by === 'date' ? utcText('p.created_at') : 'p.amount_major::text'} AS sort_value
       FROM payments p JOIN merchants m ON m.id = p.merchant_id
      WHERE ${where.join(' AND ')}
      ORDER BY ${key.column} ${dir}, p.id ${dir}
      LIMIT ${params.add(String(input.limit + 1))}::integer`,
    params.values,
  )
  const more = rows.length > input.limit
  const read = more ? rows.slice(0, input.limit) : rows
  const shown = input.backward ? read.reverse() : read
  const position = (row: PageRow | undefined) => row && { value: row.sort_value, id: row.id }
  return { payments: shown.map((row) => toListed(row, input.logoUrl)), first: position(shown[0]), last: position(shown.at(-1)), more }
}

function toListed(row: PageRow, logoUrl: LogoUrl): Payment {
  const payment = listingPayment(toPaymentRecord(row), {
    id: row.merchant_id,
    name: row.merchant_name,
    iconUrl: logoUrl(row.merchant_logo),
  })
  payment.createdAt = isoText(row.created_text)
  payment.lastUpdatedAt = isoText(row.updated_text)
  if (payment.settledAt !== undefined && row.settled_text !== null) payment.settledAt = isoText(row.settled_text)
  return payment
}
