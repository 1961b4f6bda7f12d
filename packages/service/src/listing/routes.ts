import type { FastifyInstance } from 'fastify'
import { type RawQuery, routePath } from '@till/contract'
import type { ListingScope } from './filter.ts'
import type { PaymentListing } from './service.ts'
import type { Authenticator } from '../http/auth.ts'
import { principalOf, requireMerchant, versionOf } from '../http/context.ts'

/** The partner listing (spec 4.1) and its merchant-scoped view. */
export function paymentListingRoutes(app: FastifyInstance, deps: { auth: Authenticator; listing: PaymentListing }) {
  // Also for a wallet app's client (App-Id + Client-Id), as the operations table allows: it sees what it paid.
  app.get(routePath('PartnerPayments_list'), async (request) => {
    const principal = principalOf(request)
    const scope: ListingScope = principal.wallet
      ? { kind: 'wallet', partnerId: principal.partnerId, ...principal.wallet }
      : { kind: 'partner', partnerId: principal.partnerId }
    return deps.listing.list({ scope, version: versionOf(request), query: request.query as RawQuery })
  })

  app.get(routePath('MerchantPayments_list'), async (request) => {
    const merchantId = await requireMerchant(request, deps.auth)
    const scope: ListingScope = { kind: 'merchant', partnerId: principalOf(request).partnerId, merchantId }
    return deps.listing.list({ scope, version: versionOf(request), query: request.query as RawQuery })
  })
}
