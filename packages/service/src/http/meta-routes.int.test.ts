import { OPERATIONS } from '@till/contract'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase, testApp, type TestDatabase } from '../../test/fixtures.ts'
import { beginDraining } from './drain.ts'

let tdb: TestDatabase
let live: FastifyInstance
let sandbox: FastifyInstance

beforeAll(async () => {
  tdb = await openTestDatabase()
  live = await testApp(tdb.db)
  sandbox = await testApp(tdb.db, { config: { sandbox: true } })
})
afterAll(async () => {
  await live.close()
  await sandbox.close()
  await tdb.close()
})

type OpenApi = { openapi: string; paths: Record<string, Record<string, unknown>> }

describe('/openapi.json', () => {
  it('serves the OpenAPI 3.1 document generated from the contract, without a key', async () => {
    const response = await live.inject({ url: '/openapi.json' })
    expect(response.statusCode).toBe(200)
    const document = response.json<OpenApi>()
    expect(document.openapi).toBe('3.1.0')
    expect(Object.keys(document.paths['/v1/merchant/payment'] ?? {})).toContain('post')
    expect(Object.keys(document.paths['/v1/merchant/payment/{id}/status'] ?? {})).toContain('get')
    expect(Object.keys(document.paths['/v1/payments/{paymentId}/status'] ?? {})).toContain('get')
  })

  it.each([
    ['live', () => live],
    ['sandbox', () => sandbox],
  ])('lists only the routes the %s service answers', async (_mode, app) => {
    const document = (await app().inject({ url: '/openapi.json' })).json<OpenApi>()
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations).filter((key) => ['get', 'post', 'patch', 'put', 'delete'].includes(key))) {
        const url = path.replace(/\{[^}]+\}/g, 'pay_00000000000000000000000000000000')
        const response = await app().inject({ method: method.toUpperCase() as 'GET', url })
        expect(response.json<{ code: string }>().code, `${method} ${path}`).not.toBe('not_found')
      }
    }
  })

  // Routes and documented paths come from one table (@till/contract OPERATIONS): before it, the webhook
  // endpoints' routes were written with `:id` and documented with `{endpointId}`, and went unpublished.
  it('publishes every operation of the contract, each served where it is documented', async () => {
    const document = (await sandbox.inject({ url: '/openapi.json' })).json<OpenApi>()
    const published = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => (operation as { operationId: string }).operationId),
    )
    expect(published.sort()).toEqual(Object.keys(OPERATIONS).sort())
  })

  it('documents the sandbox endpoints only in sandbox mode', async () => {
    const sandboxPaths = (document: OpenApi) => Object.keys(document.paths).filter((path) => path.startsWith('/v1/sandbox/'))
    expect(sandboxPaths((await live.inject({ url: '/openapi.json' })).json<OpenApi>())).toEqual([])
    expect(sandboxPaths((await sandbox.inject({ url: '/openapi.json' })).json<OpenApi>()).sort()).toEqual([
      '/v1/sandbox/payments/{paymentId}/confirm',
      '/v1/sandbox/payments/{paymentId}/reach-deadline',
      '/v1/sandbox/payments/{paymentId}/simulate',
      '/v1/sandbox/refunds/{refundId}/simulate',
    ])
  })
})

describe('health', () => {
  it('answers liveness and readiness', async () => {
    expect((await live.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' })
    expect((await live.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' })
  })

  it('is not ready on a database a newer Till migrated further, and says nothing of versions', async () => {
    await tdb.db.query("INSERT INTO schema_migrations (name) VALUES ('9999_from_the_future.sql')")
    try {
      const response = await live.inject({ url: '/readyz' })
      expect([response.statusCode, response.json<{ code: string }>().code]).toEqual([503, 'service_unavailable'])
      expect(response.body).not.toMatch(/9999|[0-9]{4}_/)
      expect((await live.inject({ url: '/healthz' })).statusCode).toBe(200)
    } finally {
      await tdb.db.query("DELETE FROM schema_migrations WHERE name = '9999_from_the_future.sql'")
    }
    expect((await live.inject({ url: '/readyz' })).statusCode).toBe(200)
  })

  it('answers 503 to both checks once draining, while every other request is still served', async () => {
    const app = await testApp(tdb.db)
    try {
      beginDraining(app)
      for (const url of ['/healthz', '/readyz']) {
        const response = await app.inject({ url })
        expect([response.statusCode, response.json<{ code: string }>().code], url).toEqual([503, 'service_unavailable'])
      }
      expect((await app.inject({ url: '/openapi.json' })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})
