import { createOpenApiDocument } from '@till/contract/openapi'
import type { FastifyInstance } from 'fastify'
import type { Database } from '../db/port.ts'
import { ApiError, databaseUnavailable } from '../errors.ts'
import { isDraining, isStarted } from './drain.ts'
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

/**
 * Health checks and the OpenAPI document, outside /v1: no key, no version. The checks say nothing of
 * versions or internals: 200, or 503 in the spec's error shape.
 * - `/healthz`: the process runs and is not shutting down.
 * - `/readyz`: also started (every area's start-up done), its database answers, and the database's schema
 *   is the one this version migrates to (a newer Till may have migrated it since).
 */
export function metaRoutes(
  app: FastifyInstance,
  deps: { db: Database; sandbox: boolean; served: ServedOperations; latestMigration: string | undefined },
) {
  let document: string | undefined
  const shuttingDown = () => new ApiError('service_unavailable', 'This instance is shutting down; retry elsewhere.')
  const notReady = () => new ApiError('service_unavailable', 'This instance is not ready to serve; retry shortly.')

  app.get('/openapi.json', async (_request, reply) => {
    document ??= servedDocument(deps.sandbox, deps.served)
    return reply.type('application/json; charset=utf-8').send(document)
  })
  app.get('/healthz', async () => {
    if (isDraining(app)) throw shuttingDown()
    return { status: 'ok' }
  })
  app.get('/readyz', async () => {
    if (isDraining(app)) throw shuttingDown()
    if (!isStarted(app)) throw notReady()
    let schema: string | null | undefined
    try {
      ;[{ name: schema } = { name: null }] = await deps.db.query<{ name: string | null }>('SELECT max(name) AS name FROM schema_migrations')
    } catch {
      throw databaseUnavailable()
    }
    if (deps.latestMigration !== undefined && schema !== deps.latestMigration) throw notReady()
    return { status: 'ready' }
  })
}
