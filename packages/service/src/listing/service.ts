import {
  type ApiVersion,
  type Payment,
  listingQueryErrorCode,
  PaymentListQuery,
  type PaymentListResponse,
  type RawQuery,
  toErrorIssues,
} from '@till/contract'
import type { Queryable } from '../db/port.ts'
import { ApiError } from '../errors.ts'
import { type CursorPosition, type ListingCursors, queryFingerprint } from './cursor.ts'
import { type ListingFilter, type ListingScope, type ListingSearch, matchesNothing, toListingFilter } from './filter.ts'
import type { LogoUrl } from '../logos/index.ts'
import { readDailyVolumes } from './daily.ts'
import { readPage } from './page.ts'
import { NO_STATS, readStats, statsView } from './stats.ts'

// `asset` is the deprecated spelling of one token_symbol value (spec 4.1, 9.5); the preview removes it.
const ASSET_REMOVED_IN: ApiVersion = '2026-02-19.preview'

export type ListingDeps = {
  db: Queryable
  cursors: ListingCursors
  /** Ends the scope's pending payments past their deadline, so none is listed as open after it expired. */
  settleDeadlines: (partnerId: string) => Promise<void>
  /** Where each merchant's logo is served (rows carry `merchant.iconUrl`). */
  logoUrl: LogoUrl
}

// An export reads this many rows at a time: memory stays that of one batch, whatever the export's size.
const EXPORT_BATCH = 500

/** The partner listing (spec 4.1): one keyset page of the scope's payments with the query's statistics. */
export function paymentListing(deps: ListingDeps) {
  return {
    /**
     * Every payment the query matches, in its order, a batch at a time (the dashboard's "Export CSV"): the
     * listing's filters and sort, walked to the end by its keyset, with neither stats nor a limit.
     */
    async *every(input: { scope: ListingScope; version: ApiVersion; query: RawQuery; search?: ListingSearch }): AsyncGenerator<Payment> {
      const { scope, version } = input
      const { cursor: _cursor, limit: _limit, ...raw } = input.query
      const query = parseQuery(raw, scope, version)
      const tokenSymbols = query.asset === undefined ? query.token_symbol : [...(query.token_symbol ?? []), query.asset]
      const filter = withSearch(toListingFilter(query, scope, tokenSymbols), input.search)
      if (matchesNothing(filter)) return
      await deps.settleDeadlines(scope.partnerId)
      const sort = { by: query.sortBy, dir: query.sortDir }
      let after: CursorPosition | undefined
      for (;;) {
        const page = await readPage(deps.db, { filter, sort, limit: EXPORT_BATCH, logoUrl: deps.logoUrl, ...(after ? { after } : {}) })
        yield* page.payments
        if (!page.more || !page.last) return
        after = page.last
      }
    },

    /** The matching payments per UTC day (the dashboard's chart): the listing's filters, no page, no sort. */
    async daily(input: { scope: ListingScope; version: ApiVersion; query: RawQuery; search?: ListingSearch; now: Date }) {
      const { cursor: _cursor, limit: _limit, sortBy: _sortBy, sortDir: _sortDir, ...raw } = input.query
      const query = parseQuery(raw, input.scope, input.version)
      const tokenSymbols = query.asset === undefined ? query.token_symbol : [...(query.token_symbol ?? []), query.asset]
      const filter = withSearch(toListingFilter(query, input.scope, tokenSymbols), input.search)
      return matchesNothing(filter) ? [] : readDailyVolumes(deps.db, filter, input.now)
    },

    async list(input: {
      scope: ListingScope
      version: ApiVersion
      query: RawQuery
      search?: ListingSearch
      /** The dashboard's "Previous": a cursor to the page before this one, beside `nextCursor`. */
      previous?: boolean
    }): Promise<PaymentListResponse & { previousCursor?: string | null }> {
      const { scope, version } = input
      const query = parseQuery(input.query, scope, version)
      const tokenSymbols = query.asset === undefined ? query.token_symbol : [...(query.token_symbol ?? []), query.asset]
      const filter = withSearch(toListingFilter(query, scope, tokenSymbols), input.search)
      const sort = { by: query.sortBy, dir: query.sortDir }
      const fingerprint = queryFingerprint({ scope, version, filter, sort })
      const resumed = query.cursor === undefined ? undefined : deps.cursors.read(fingerprint, query.cursor)
      if (query.cursor !== undefined && !resumed) {
        throw new ApiError(
          'invalid_params',
          'The cursor was not issued for this query: pass the nextCursor of the previous page unchanged, with the same parameters.',
          {
            issues: [
              { field: 'cursor', message: 'must be the nextCursor of this very query (same filters, sort, version and credentials)' },
            ],
          },
        )
      }
      if (matchesNothing(filter)) return { data: [], nextCursor: null, stats: statsView(NO_STATS) }
      if (!resumed) await deps.settleDeadlines(scope.partnerId)
      const backward = resumed?.backward === true
      const [page, stats] = await Promise.all([
        readPage(deps.db, {
          filter,
          sort,
          limit: query.limit,
          logoUrl: deps.logoUrl,
          ...(resumed ? { after: resumed.position, backward } : {}),
        }),
        resumed ? resumed.stats : readStats(deps.db, filter),
      ])
      // Read backward, `more` is about the pages before; the page it came back from is always after it.
      const hasNext = backward ? page.last !== undefined : page.more
      const hasPrevious = backward ? page.more : resumed !== undefined && page.first !== undefined
      const cursor = (position: CursorPosition | undefined, toPrevious: boolean) =>
        position ? deps.cursors.issue(fingerprint, { position, stats, ...(toPrevious ? { backward: true } : {}) }) : null
      return {
        data: page.payments,
        nextCursor: hasNext ? cursor(page.last, false) : null,
        ...(input.previous ? { previousCursor: hasPrevious ? cursor(page.first, true) : null } : {}),
        stats: statsView(stats),
      }
    },
  }
}

export type PaymentListing = ReturnType<typeof paymentListing>

const withSearch = (filter: ListingFilter, search: ListingSearch | undefined): ListingFilter => (search ? { ...filter, search } : filter)

function parseQuery(raw: RawQuery, scope: ListingScope, version: ApiVersion): PaymentListQuery {
  const issues: { field: string; message: string }[] = []
  if (raw.asset !== undefined && version === ASSET_REMOVED_IN) {
    issues.push({ field: 'asset', message: `was removed in ${ASSET_REMOVED_IN}; use token_symbol` })
  }
  if (raw.merchantId !== undefined && scope.kind === 'merchant') {
    issues.push({ field: 'merchantId', message: 'is not accepted here: the Merchant-Id header already names the merchant' })
  }
  const parsed = PaymentListQuery.safeParse(raw)
  if (parsed.success && issues.length === 0) return parsed.data
  const all = [...issues, ...(parsed.success ? [] : toErrorIssues(parsed.error, 'query'))]
  const code = issues.length > 0 || parsed.success ? 'invalid_params' : listingQueryErrorCode(parsed.error)
  const first = all[0]
  throw new ApiError(code, `Invalid query (${first?.field}: ${first?.message}).`, { issues: all })
}
