import { type AuthScheme, type OperationId, OPERATIONS, operation, routePath } from '@till/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation of @till/contract's table that the route serves; set when the route is declared. */
    operation?: OperationId
  }
}

const IDS = Object.keys(OPERATIONS) as OperationId[]
const BY_ROUTE = new Map(IDS.map((id) => [`${OPERATIONS[id].method} ${routePath(id)}`, id]))

/**
 * Ties every route declared on `v1` to its operation in @till/contract's table, so that the authentication
 * hook reads who may call a route from the table the OpenAPI document is written from: the two cannot
 * disagree. A route that is not an operation fails at start-up instead of going unauthenticated by the
 * table's rules and undocumented. Call before any route is declared.
 */
export function bindOperations(v1: FastifyInstance): void {
  v1.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    // Fastify declares a HEAD twin of each GET route, answered by the GET's handler.
    const ids = new Set(methods.map((method) => BY_ROUTE.get(`${method === 'HEAD' ? 'GET' : method} ${route.url}`)))
    const [id] = ids
    if (ids.size !== 1 || id === undefined) {
      throw new Error(`${methods.join(', ')} ${route.url} is not an operation of @till/contract's OPERATIONS`)
    }
    // The hook takes Api-Key on every route (authenticateRequest); an operation without it would be let in anyway.
    if (!operation(id).auth.some((scheme) => scheme === 'partnerKey' || scheme === 'merchantKey')) {
      throw new Error(`${id} takes no Api-Key, which the authentication hook does not support`)
    }
    route.config = { ...route.config, operation: id }
  })
}

/** Whether the operation the request was routed to accepts `scheme`. */
export function accepts(request: FastifyRequest, scheme: AuthScheme): boolean {
  const id = request.routeOptions.config.operation
  return id !== undefined && operation(id).auth.includes(scheme)
}

/** The operations that take `scheme`, as `GET /v1/payments`, for the errors that refuse it elsewhere. */
export function operationsAccepting(scheme: AuthScheme): string {
  return IDS.filter((id) => operation(id).auth.includes(scheme))
    .map((id) => `${OPERATIONS[id].method} ${OPERATIONS[id].path}`)
    .join(', ')
}
