import { readFile } from 'node:fs/promises'
import { gzipSync } from 'node:zlib'
import { DASHBOARD_DIST } from '@till/dashboard/assets'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../errors.ts'

/**
 * The dashboard's pages as `pnpm build` left them (packages/dashboard/dist): one HTML page for every path
 * under /dashboard/ (its script picks the page from the address), and its content-addressed assets.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' }

function securityHeaders(reply: FastifyReply, https: boolean): FastifyReply {
  reply
    .header('Content-Security-Policy', CSP)
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Cross-Origin-Opener-Policy', 'same-origin')
    .header('X-Robots-Tag', 'noindex')
  if (https) reply.header('Strict-Transport-Security', 'max-age=31536000')
  return reply
}

/** A file as served: its bytes, and their gzip, made once per process. */
type Served = { body: Buffer; gzip: Buffer }
const served = (body: Buffer): Served => ({ body, gzip: gzipSync(body, { level: 9 }) })

function sendServed(request: FastifyRequest, reply: FastifyReply, file: Served) {
  reply.header('Vary', 'Accept-Encoding')
  if (!/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.send(file.body)
  return reply.header('Content-Encoding', 'gzip').send(file.gzip)
}

export function dashboardPageRoutes(app: FastifyInstance, deps: { https: () => boolean }) {
  // Read once, on first use: a service started before the dashboard was built says so instead of failing.
  let built: Promise<Served | undefined> | undefined
  const html = () => (built ??= readFile(new URL('index.html', DASHBOARD_DIST)).then(served, () => undefined))
  const assets = new Map<string, Promise<Served | undefined>>()

  app.get<{ Params: { file: string } }>('/dashboard/assets/:file', async (request, reply) => {
    const { file } = request.params
    const type = TYPES[file.split('.').at(-1) ?? '']
    if (!type || !/^[\w.-]+$/.test(file)) throw new ApiError('not_found', `No dashboard asset ${file}.`)
    if (!assets.has(file))
      assets.set(
        file,
        readFile(new URL(`assets/${file}`, DASHBOARD_DIST)).then(served, () => undefined),
      )
    const asset = await assets.get(file)
    if (!asset) {
      assets.delete(file)
      throw new ApiError('not_found', `No dashboard asset ${file}.`)
    }
    securityHeaders(reply, deps.https()).type(type).header('Cache-Control', 'public, max-age=31536000, immutable')
    return sendServed(request, reply, asset)
  })

  async function page(request: FastifyRequest, reply: FastifyReply) {
    const body = await html()
    if (!body) throw new ApiError('service_unavailable', 'The dashboard is not built: run `pnpm build`.')
    securityHeaders(reply, deps.https()).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache')
    return sendServed(request, reply, body)
  }

  // The router's wildcard takes no empty rest: the dashboard's own address is a route of its own.
  app.get('/dashboard/', async (request, reply) => page(request, reply))
  app.get<{ Params: { '*': string } }>('/dashboard/*', async (request, reply) => {
    if (request.params['*'].startsWith('api/')) throw new ApiError('not_found', `No route GET ${request.url}.`)
    return page(request, reply)
  })
}
