import { readFile } from 'node:fs/promises'
import { DASHBOARD_DIST } from '@till/dashboard/assets'
import type { FastifyInstance, FastifyReply } from 'fastify'
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

export function dashboardPageRoutes(app: FastifyInstance, deps: { https: () => boolean }) {
  // Read once, on first use: a service started before the dashboard was built says so instead of failing.
  let built: Promise<string | undefined> | undefined
  const html = () => (built ??= readFile(new URL('index.html', DASHBOARD_DIST), 'utf8').catch(() => undefined))

  app.get<{ Params: { file: string } }>('/dashboard/assets/:file', async (request, reply) => {
    const { file } = request.params
    const type = TYPES[file.split('.').at(-1) ?? '']
    if (!type || !/^[\w.-]+$/.test(file)) throw new ApiError('not_found', `No dashboard asset ${file}.`)
    const body = await readFile(new URL(`assets/${file}`, DASHBOARD_DIST)).catch(() => undefined)
    if (!body) throw new ApiError('not_found', `No dashboard asset ${file}.`)
    return securityHeaders(reply, deps.https()).type(type).header('Cache-Control', 'public, max-age=31536000, immutable').send(body)
  })

  async function page(reply: FastifyReply) {
    const body = await html()
    if (!body) throw new ApiError('service_unavailable', 'The dashboard is not built: run `pnpm build`.')
    return securityHeaders(reply, deps.https()).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(body)
  }

  // The router's wildcard takes no empty rest: the dashboard's own address is a route of its own.
  app.get('/dashboard/', async (_request, reply) => page(reply))
  app.get<{ Params: { '*': string } }>('/dashboard/*', async (request, reply) => {
    if (request.params['*'].startsWith('api/')) throw new ApiError('not_found', `No route GET ${request.url}.`)
    return page(reply)
  })
}
