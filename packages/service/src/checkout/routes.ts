import type { FastifyInstance } from 'fastify'
import type { CheckoutDeps } from './context.ts'
import { setCheckoutSecurityHeaders } from './security-headers.ts'
import { enforceRateLimit } from '../http/rate-limit.ts'
import { checkoutApiRoutes } from './api-routes.ts'
import { checkoutPageRoutes } from './page-routes.ts'
import { logoRoutes } from './logo-routes.ts'

/** Everything under /checkout: the page, its assets, merchants' logos and its gateway API, with their headers and limits. */
export async function checkoutRoutes(app: FastifyInstance, deps: CheckoutDeps) {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      setCheckoutSecurityHeaders(reply, { https: deps.https() })
      // Assets are immutable and served from memory; everything else (logos, read from the database, too)
      // counts against the caller's address.
      if (request.url.startsWith('/checkout/assets/')) return
      enforceRateLimit(deps.limits.perIp, request.ip, reply, 'from this address')
    })
    checkoutPageRoutes(scope, deps)
    checkoutApiRoutes(scope, deps)
    logoRoutes(scope, deps)
  })
}
