import type { FastifyInstance } from 'fastify'

/** `GET /v1/payments/{paymentId}/status`: an operation as the OpenAPI document names it. */
export type ServedOperations = { has(method: string, openApiPath: string): boolean }

const DOCUMENTED_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Records every /v1 route as it is declared, under its OpenAPI path (`:id` becomes `{id}`). The published
 * document lists exactly these operations, so declaring a route is what makes it documented: there is no
 * second list to keep in step, and a client generated from the document never calls a route that 404s.
 * Call before any route is registered.
 */
export function recordServedOperations(app: FastifyInstance): ServedOperations {
  const served = new Set<string>()
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/')) return
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    const path = route.url.replaceAll(/:([A-Za-z0-9_]+)/g, '{$1}')
    for (const method of methods) if (DOCUMENTED_METHODS.has(method)) served.add(`${method} ${path}`)
  })
  return { has: (method, path) => served.has(`${method.toUpperCase()} ${path}`) }
}
