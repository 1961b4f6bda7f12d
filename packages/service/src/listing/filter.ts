import { fromListingStatus, type MerchantPaymentStatus, type PaymentListQuery } from '@till/contract'
import type { SqlValue } from '../db/port.ts'

/** Whose payments a listing may show: decided by the credentials, never by the query. */
export type ListingScope =
  | { kind: 'partner'; partnerId: string }
  | { kind: 'merchant'; partnerId: string; merchantId: string }
  /** A wallet app's client (App-Id + Client-Id): only the payments that client paid through that app. */
  | { kind: 'wallet'; partnerId: string; appId: string; clientId: string }

/** A listing query's filters in storage terms. An absent field does not filter. */
export type ListingFilter = {
  partnerId: string
  merchantIds?: readonly string[]
  wallet?: { appId: string; clientId: string }
  /** Stored (merchant view) statuses; an empty list matches nothing. */
  statuses?: readonly MerchantPaymentStatus[]
  tokenSymbols?: readonly string[]
  networks?: readonly string[]
  referenceId?: string
  /** RFC 3339 strings, kept as text so their microseconds reach PostgreSQL intact. */
  startTs?: string
  endTs?: string
  /** The dashboard's search box (not the API's): one payment, one transaction, or one buyer's address. */
  search?: ListingSearch
}

export type ListingSearch =
  | { kind: 'payment'; paymentId: string }
  | { kind: 'transaction'; hash: string }
  | { kind: 'buyer'; address: string }

/** Whether the filter reads payments row by row: the rollups and customer sets carry no such filter. */
export const readsRows = (filter: ListingFilter): boolean =>
  filter.referenceId !== undefined || filter.wallet !== undefined || filter.search !== undefined

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)]

export function toListingFilter(query: PaymentListQuery, scope: ListingScope, tokenSymbols: readonly string[] | undefined): ListingFilter {
  const merchantIds = scope.kind === 'merchant' ? [scope.merchantId] : query.merchantId === undefined ? undefined : unique(query.merchantId)
  return {
    partnerId: scope.partnerId,
    ...(merchantIds ? { merchantIds } : {}),
    ...(scope.kind === 'wallet' ? { wallet: { appId: scope.appId, clientId: scope.clientId } } : {}),
    // The listing's `requires_action` is a stored `pending`; every other value is stored as it is named.
    ...(query.status ? { statuses: unique(query.status.map(fromListingStatus).filter((status) => status !== undefined)) } : {}),
    ...(tokenSymbols ? { tokenSymbols: unique(tokenSymbols) } : {}),
    ...(query.network ? { networks: unique(query.network) } : {}),
    ...(query.referenceId !== undefined ? { referenceId: query.referenceId } : {}),
    ...(query.startTs !== undefined ? { startTs: query.startTs } : {}),
    ...(query.endTs !== undefined ? { endTs: query.endTs } : {}),
  }
}

/** Whether a filter can match anything at all: an empty list of statuses cannot. */
export const matchesNothing = (filter: ListingFilter): boolean => filter.statuses?.length === 0

/** Positional parameters for one statement: `add` returns the placeholder of the value it was given. */
export class SqlParams {
  readonly values: SqlValue[] = []

  add(value: SqlValue): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

/**
 * The WHERE conditions of a filter on payments aliased `p`. `time` false leaves the time range out, for
 * callers that split it themselves (the statistics read whole days from the rollups).
 */
export function paymentConditions(filter: ListingFilter, params: SqlParams, options: { time?: boolean } = {}): string[] {
  const conditions = [`p.partner_id = ${params.add(filter.partnerId)}`]
  if (filter.merchantIds) {
    conditions.push(
      filter.merchantIds.length === 1
        ? `p.merchant_id = ${params.add(filter.merchantIds[0] ?? '')}`
        : `p.merchant_id = ANY (${params.add(filter.merchantIds)}::text[])`,
    )
  }
  if (filter.wallet) {
    conditions.push(`p.wallet_app_id = ${params.add(filter.wallet.appId)}`, `p.wallet_client_id = ${params.add(filter.wallet.clientId)}`)
  }
  conditions.push(...dimensionConditions(filter, params, 'p.'))
  if (filter.referenceId !== undefined) conditions.push(`p.reference_id ILIKE ${params.add(`%${filter.referenceId}%`)}`)
  // Each behind its own index (migration 0019): the id, the hash in lower case, the address in lower case.
  if (filter.search?.kind === 'payment') conditions.push(`p.id = ${params.add(filter.search.paymentId)}`)
  if (filter.search?.kind === 'transaction') conditions.push(`lower(p.tx_hash) = ${params.add(filter.search.hash.toLowerCase())}`)
  if (filter.search?.kind === 'buyer') {
    conditions.push(`lower(split_part(p.buyer_account, ':', 3)) = ${params.add(filter.search.address.toLowerCase())}`)
  }
  if (options.time !== false) conditions.push(...timeConditions(filter.startTs, filter.endTs, params))
  return conditions
}

/** The filters a rollup row carries too: status, token and network (rollups store '' for none). */
export function dimensionConditions(filter: ListingFilter, params: SqlParams, prefix: string): string[] {
  const conditions: string[] = []
  const oneOf = (column: string, values: readonly string[]) =>
    values.length === 1 ? `${prefix}${column} = ${params.add(values[0] ?? '')}` : `${prefix}${column} = ANY (${params.add(values)}::text[])`
  if (filter.statuses) conditions.push(oneOf('status', filter.statuses))
  if (filter.tokenSymbols) conditions.push(oneOf('token_symbol', filter.tokenSymbols))
  if (filter.networks) conditions.push(oneOf('network', filter.networks))
  return conditions
}

export function timeConditions(from: string | undefined, to: string | undefined, params: SqlParams): string[] {
  const conditions: string[] = []
  if (from !== undefined) conditions.push(`p.created_at >= ${params.add(from)}::timestamptz`)
  if (to !== undefined) conditions.push(`p.created_at < ${params.add(to)}::timestamptz`)
  return conditions
}
