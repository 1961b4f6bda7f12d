import { createOpenApiDocument } from '@till/contract/openapi'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../../db/port.ts'
import { ApiError } from '../../errors.ts'

/** Health checks and the OpenAPI document, outside /v1: no key, no version. */
export function metaRoutes(app: FastifyInstance, deps: { db: Database; sandbox: boolean }) {
  let document: string | undefined
  app.get('/openapi.json', async (_request, reply) => {
    document ??= JSON.stringify(createOpenApiDocument({ sandbox: deps.sandbox }))
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
