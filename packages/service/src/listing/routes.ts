import type { FastifyInstance, FastifyRequest } from 'fastify'
import { type RawQuery, routePath } from '@till/contract'
import type { ListingScope } from './filter.ts'
import type { PaymentListing } from './service.ts'
import type { Authenticator } from '../http/auth.ts'
import { principalOf, requireMerchant } from '../http/context.ts'

/** Routes that also take the public App-Id + Client-Id credentials (spec 5, rule 1). */
export const WALLET_AUTH = { walletAuth: true } as const

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route accepts App-Id + Client-Id as well as Api-Key. */
    walletAuth?: boolean
  }
}

function versionOf(request: FastifyRequest) {
  if (!request.apiVersion) throw new Error('route is missing the authentication hook')
  return request.apiVersion
}

/** The partner listing (spec 4.1) and its merchant-scoped view. */
export function paymentListingRoutes(app: FastifyInstance, deps: { auth: Authenticator; listing: PaymentListing }) {
  app.get(routePath('PartnerPayments_list'), { config: WALLET_AUTH }, async (request) => {
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
