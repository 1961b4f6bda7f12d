import { createOpenApiDocument } from '@till/contract/openapi'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../db/port.ts'
import { databaseUnavailable } from '../errors.ts'
import type { ServedOperations } from './served-operations.ts'

// The contract describes the whole interface; the document this service publishes lists only the
// operations it serves (ServedOperations), so a client generated from it never calls a route that 404s.
function servedDocument(sandbox: boolean, served: ServedOperations): string {
  const document = createOpenApiDocument({ sandbox })
  const paths = document.paths as Record<string, Record<string, unknown>>
  const servedPaths = Object.entries(paths).flatMap(([path, operations]) => {
    const kept = Object.entries(operations).filter(([method]) => served.has(method, path))
    return kept.length === 0 ? [] : [[path, Object.fromEntries(kept)] as const]
  })
  return JSON.stringify({ ...document, paths: Object.fromEntries(servedPaths) })
}

/** Health checks and the OpenAPI document, outside /v1: no key, no version. */
export function metaRoutes(app: FastifyInstance, deps: { db: Database; sandbox: boolean; served: ServedOperations }) {
  let document: string | undefined
  app.get('/openapi.json', async (_request, reply) => {
    document ??= servedDocument(deps.sandbox, deps.served)
    return reply.type('application/json; charset=utf-8').send(document)
  })
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async () => {
    try {
      await deps.db.query('SELECT 1')
    } catch {
      throw databaseUnavailable()
    }
    return { status: 'ready' }
  })
}
