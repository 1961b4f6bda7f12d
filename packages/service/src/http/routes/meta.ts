import { createOpenApiDocument } from '@till/contract/openapi'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../../db/port.ts'
import { ApiError } from '../../errors.ts'

// The contract describes the whole interface; the document this service publishes lists only what it
// serves, so a client generated from it never calls a route that answers 404.
const SERVED_PATHS = new Set([
  '/v1/merchant/payment',
  '/v1/merchant/payment/{id}/status',
  '/v1/payments/{paymentId}/status',
  '/v1/sandbox/payments/{paymentId}/simulate',
  '/v1/sandbox/payments/{paymentId}/confirm',
  '/v1/sandbox/payments/{paymentId}/reach-deadline',
])

function servedDocument(sandbox: boolean): string {
  const document = createOpenApiDocument({ sandbox })
  const paths = document.paths as Record<string, unknown>
  return JSON.stringify({
    ...document,
    paths: Object.fromEntries(Object.entries(paths).filter(([path]) => SERVED_PATHS.has(path))),
  })
}

/** Health checks and the OpenAPI document, outside /v1: no key, no version. */
export function metaRoutes(app: FastifyInstance, deps: { db: Database; sandbox: boolean }) {
  let document: string | undefined
  app.get('/openapi.json', async (_request, reply) => {
    document ??= servedDocument(deps.sandbox)
    return reply.type('application/json; charset=utf-8').send(document)
  })
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async () => {
    try {
      await deps.db.query('SELECT 1')
    } catch {
      throw new ApiError('service_unavailable', 'The database does not answer.')
    }
    return { status: 'ready' }
  })
}
