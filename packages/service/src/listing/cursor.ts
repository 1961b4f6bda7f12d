import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { z } from 'zod'
import type { ExactStats } from './stats.ts'

/** Where a page ended: the last row's sort value (a timestamp or an amount, as exact text) and its id. */
export type CursorPosition = { value: string; id: string }

/** `backward`: the page wanted is the one before the position (the dashboard's "Previous"), not after it. */
export type CursorState = { position: CursorPosition; stats: ExactStats; backward?: boolean }

const Payload = z.object({
  q: z.string(),
  k: z.tuple([z.string(), z.string()]),
  b: z.literal(1).optional(),
  s: z.object({
    r: z.array(z.tuple([z.string(), z.string().regex(/^-?[0-9]+$/)])),
    t: z.string().regex(/^[0-9]+$/),
    c: z.string().regex(/^[0-9]+$/),
  }),
})

/**
 * Opaque, signed listing cursors. A cursor carries where its page ended and the query's statistics, and
 * is bound by HMAC to a fingerprint of everything that shaped the query (the caller's scope, filters,
 * sort and API version): replayed on another query, another partner, or altered by one bit, it is refused.
 * The statistics travel with it so every page of one query reports the same figures (ADR 0017).
 */
export function listingCursors(key: Buffer) {
  const sign = (body: string) => createHmac('sha256', key).update(`listing-cursor:${body}`).digest('base64url')

  return {
    issue(fingerprint: string, state: CursorState): string {
      const payload: z.infer<typeof Payload> = {
        q: fingerprint,
        k: [state.position.value, state.position.id],
        ...(state.backward ? { b: 1 as const } : {}),
        s: {
          r: state.stats.revenue.map(({ currency, minor }) => [currency, minor.toString()]),
          t: state.stats.transactions.toString(),
          c: state.stats.customers.toString(),
        },
      }
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
      return `${body}.${sign(body)}`
    },

    /** The cursor's state, or undefined when it was not issued for this very query. */
    read(fingerprint: string, cursor: string): CursorState | undefined {
      const [body, signature, extra] = cursor.split('.')
      if (body === undefined || signature === undefined || extra !== undefined) return undefined
      // Compared as the exact string issued: base64url decoding is lenient about trailing bits.
      const expected = Buffer.from(sign(body))
      const given = Buffer.from(signature)
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined
      let json: unknown
      try {
        json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
      } catch {
        return undefined
      }
      const parsed = Payload.safeParse(json)
      if (!parsed.success || parsed.data.q !== fingerprint) return undefined
      const { k, s, b } = parsed.data
      return {
        position: { value: k[0], id: k[1] },
        ...(b ? { backward: true } : {}),
        stats: {
          revenue: s.r.map(([currency, minor]) => ({ currency, minor: BigInt(minor) })),
          transactions: BigInt(s.t),
          customers: BigInt(s.c),
        },
      }
    },
  }
}

export type ListingCursors = ReturnType<typeof listingCursors>

/** A digest of the query's shape: equal for every page of one query, different for any other query. */
export function queryFingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22)
}
