import type { AreaContext, V1Routes } from '../area-context.ts'
import { unappliedTransferPages } from '../evm/index.ts'
import { merchantRoutes } from './routes.ts'
import { logoFetcher, logoImporter } from '../logos/index.ts'
import { idempotencyKeys } from '../http/idempotency.ts'
import { merchantService } from './service.ts'

/** Merchants over the API: create and update with their logos (spec 4.5, 4.6), and their unapplied transfers. */
export function merchantsArea(ctx: AreaContext) {
  const { db, clock, config } = ctx
  const merchants = merchantService({
    db,
    clock,
    logoUrl: ctx.logoUrl,
    idempotency: idempotencyKeys({ db, clock }),
    importLogo: logoImporter({
      fetch: logoFetcher({ ...ctx.outbound, allowLoopback: config.sandbox }),
      store: ctx.logos,
      clock,
      ended: (outcome) => ctx.metrics.logoImports.inc({ outcome }),
    }),
  })
  const unappliedTransfers = unappliedTransferPages({ db, config: ctx.evm?.config })
  const v1: V1Routes = (routes) => merchantRoutes(routes, { merchants, unappliedTransfers })
  return { v1, merchants }
}
