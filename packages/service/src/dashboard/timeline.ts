import type { Queryable } from '../db/port.ts'

/** One thing that happened to a payment, as its dashboard page lists it (issue 25, point 6), oldest first. */
export type TimelineEntry =
  | { kind: 'status'; at: string; from: string | null; to: string; reason: string }
  | { kind: 'quoted'; at: string; optionId: string; network: string; token: string; tokenAmount: string; rate: string }
  | {
      kind: 'transaction'
      at: string
      network: string
      hash: string
      /** Who saw it first: the checkout page (which posted its hash) or the chain watcher; null before issue 25. */
      seenBy: 'page' | 'watcher' | null
      matchedBy: string | null
      blockNumber: string | null
    }
  | { kind: 'confirmations'; at: string; hash: string; confirmations: number; required: number; blockNumber: string }
  | {
      kind: 'webhook_attempt'
      at: string
      eventType: string
      deliveryId: string
      endpointUrl: string
      statusCode: number | null
      latencyMs: number
      error: string | null
    }
  | { kind: 'refund'; at: string; refundId: string; status: string; tokenAmount: string; transactionHash: string | null }

const iso = (at: Date) => at.toISOString()

/**
 * A payment's timeline, read from what each part of Till already keeps: its transitions, the options it was
 * quoted, the transfer bound to it (by the page or the chain watcher) and the confirmations it was seen to reach, every webhook delivery attempt of its
 * events, and its refunds. Each read is behind an index keyed by the payment (db/query-plans.int.test.ts).
 */
export async function paymentTimeline(db: Queryable, paymentId: string): Promise<TimelineEntry[]> {
  const [transitions, quotes, transfers, confirmations, attempts, refunds] = await Promise.all([
    db.query<{ from_status: string | null; to_status: string; reason: string; at: Date }>(
      'SELECT from_status, to_status, reason, at FROM payment_transitions WHERE payment_id = $1 ORDER BY id',
      [paymentId],
    ),
    db.query<{ option_id: string; network: string; token: string; token_minor: string; rate: string; created_at: Date }>(
      `SELECT option_id, network, token, token_minor::text AS token_minor, rate, created_at FROM payment_quotes
        WHERE payment_id = $1 ORDER BY created_at, option_id`,
      [paymentId],
    ),
    db.query<{
      network: string
      tx_hash: string
      seen_by: 'page' | 'watcher' | null
      matched_by: string | null
      block_number: string | null
      recorded_at: Date
    }>(
      `SELECT network, tx_hash, seen_by, matched_by, block_number::text AS block_number, recorded_at FROM evm_transfers
        WHERE payment_id = $1 ORDER BY recorded_at`,
      [paymentId],
    ),
    db.query<{ tx_hash: string; confirmations: number; required: number; block_number: string; at: Date }>(
      `SELECT tx_hash, confirmations, required, block_number::text AS block_number, at FROM evm_confirmations
        WHERE payment_id = $1 ORDER BY at, confirmations`,
      [paymentId],
    ),
    db.query<{
      type: string
      delivery_id: string
      url: string
      attempted_at: Date
      status_code: number | null
      latency_ms: number
      error: string | null
    }>(
      `SELECT e.type, d.id::text AS delivery_id, w.url, a.attempted_at, a.status_code, a.latency_ms, a.error
         FROM webhook_events e
         JOIN webhook_deliveries d ON d.event_id = e.id
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
         JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE e.payment_id = $1
        ORDER BY a.attempted_at, a.id`,
      [paymentId],
    ),
    db.query<{ id: string; status: string; token_amount: string; tx_hash: string | null; created_at: Date }>(
      `SELECT id, status, token_amount::text AS token_amount, tx_hash, created_at FROM refunds WHERE payment_id = $1 ORDER BY seq`,
      [paymentId],
    ),
  ])
  const entries: TimelineEntry[] = [
    ...transitions.map((row) => ({
      kind: 'status' as const,
      at: iso(row.at),
      from: row.from_status,
      to: row.to_status,
      reason: row.reason,
    })),
    ...quotes.map((row) => ({
      kind: 'quoted' as const,
      at: iso(row.created_at),
      optionId: row.option_id,
      network: row.network,
      token: row.token,
      tokenAmount: row.token_minor,
      rate: row.rate,
    })),
    ...transfers.map((row) => ({
      kind: 'transaction' as const,
      at: iso(row.recorded_at),
      network: row.network,
      hash: row.tx_hash,
      seenBy: row.seen_by,
      matchedBy: row.matched_by,
      blockNumber: row.block_number,
    })),
    ...confirmations.map((row) => ({
      kind: 'confirmations' as const,
      at: iso(row.at),
      hash: row.tx_hash,
      confirmations: row.confirmations,
      required: row.required,
      blockNumber: row.block_number,
    })),
    ...attempts.map((row) => ({
      kind: 'webhook_attempt' as const,
      at: iso(row.attempted_at),
      eventType: row.type,
      deliveryId: row.delivery_id,
      endpointUrl: row.url,
      statusCode: row.status_code,
      latencyMs: row.latency_ms,
      error: row.error,
    })),
    ...refunds.map((row) => ({
      kind: 'refund' as const,
      at: iso(row.created_at),
      refundId: row.id,
      status: row.status,
      tokenAmount: row.token_amount,
      transactionHash: row.tx_hash,
    })),
  ]
  // Stable: entries of one instant keep the order of their kinds above (a status change before its webhook).
  return entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
}
