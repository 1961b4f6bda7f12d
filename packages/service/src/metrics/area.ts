import type { AreaContext } from '../area-context.ts'
import { databaseSource } from './database.ts'
import { measureRequests } from './http.ts'

/**
 * Metrics (issue 27, point 2): every answer of the public port counted and timed, and the gauges read at
 * each scrape. The other areas count their own events on `ctx.metrics`; only `till serve --metrics-port`
 * serves them, on a listener of its own.
 */
export function metricsArea(ctx: AreaContext): void {
  measureRequests(ctx.app, ctx.metrics)
  ctx.metrics.readFrom(databaseSource(ctx.db))
}
