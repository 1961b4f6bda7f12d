import { gzipSync } from 'node:zlib'
import { parseSandboxWalletLink, WALLET_LINK_PATH } from '@till/contract'
import { en } from './page/strings.ts'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { sessionFor, type CheckoutDeps } from './context.ts'
import { embeddingOf } from './embedded.ts'
import { checkoutPageHtml, integrationErrorPageHtml, notFoundPageHtml, unavailablePageHtml, walletLinkPageHtml } from './page-html.ts'
import { DatabaseUnavailable } from '../db/port.ts'
import { ApiError, DATABASE_RETRY_AFTER_SECONDS } from '../errors.ts'

const acceptsGzip = (request: FastifyRequest) => /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))

function sendHtml(request: FastifyRequest, reply: FastifyReply, status: number, html: string) {
  reply.code(status).type('text/html; charset=utf-8').header('Vary', 'Accept-Encoding')
  if (!acceptsGzip(request)) return reply.send(html)
  return reply.header('Content-Encoding', 'gzip').send(gzipSync(html))
}

/**
 * The hosted checkout page at `gatewayUrl` (spec 4.7) and its content-addressed assets: the script and
 * stylesheet it links, and the wallet chunk the script imports once the buyer picks a browser wallet.
 */
export function checkoutPageRoutes(app: FastifyInstance, deps: CheckoutDeps) {
  const { script, style, lazy } = deps.assets
  const assets = new Map([script, style, ...lazy].map((asset) => [asset.fileName, asset]))

  app.get<{ Params: { file: string } }>('/checkout/assets/:file', async (request, reply) => {
    const asset = assets.get(request.params.file)
    if (!asset) throw new ApiError('not_found', `No checkout asset ${request.params.file}.`)
    reply.type(asset.contentType).header('Cache-Control', 'public, max-age=31536000, immutable').header('Vary', 'Accept-Encoding')
    if (!acceptsGzip(request)) return reply.send(asset.body)
    return reply.header('Content-Encoding', 'gzip').send(asset.gzip)
  })

  /** Where wallet links land when no app intercepts them (spec 4.8): an ordinary browser is told what they are. */
  app.get<{ Querystring: Record<string, unknown> }>(`/checkout/${WALLET_LINK_PATH}`, async (request, reply) => {
    const uri = typeof request.query.uri === 'string' && request.query.uri.startsWith('wc:') ? request.query.uri : null
    // A sandbox link names its payment: the page leads back to it, relative to this one (`./<paymentId>`),
    // so it stays under whatever prefix a proxy gives the checkout.
    const sandbox = uri ? parseSandboxWalletLink(new URL(request.url, 'http://checkout.invalid').href) : null
    const back = sandbox ? `./${encodeURIComponent(sandbox.paymentId)}` : null
    return sendHtml(request, reply, uri ? 200 : 400, walletLinkPageHtml({ assets: deps.assets, t: en, uri, back }))
  })

  app.get<{ Params: { paymentId: string } }>('/checkout/:paymentId', async (request, reply) => {
    const { paymentId } = request.params
    const [path = '', query] = request.url.split('?', 2)
    // The page's asset and API URLs are relative to it; a trailing slash would move them. The location is
    // built from the route, never from the request target: an absolute-form target (`GET https://evil.example/…`)
    // or one starting `//` would otherwise send the buyer to another host.
    if (path.endsWith('/'))
      return reply.redirect(`/checkout/${encodeURIComponent(paymentId)}${query === undefined ? '' : `?${query}`}`, 308)
    const embedding = embeddingOf(request.query as Record<string, unknown>)
    // Told to the app's developer before anything else: the page would lose the buyer on the way back.
    if (embedding.mode === 'invalid') {
      return sendHtml(request, reply, 400, integrationErrorPageHtml({ assets: deps.assets, t: en, problems: embedding.problems }))
    }
    try {
      const payment = await deps.payments.readForCheckout(paymentId)
      const session = payment && (await sessionFor(deps, payment, embedding.mode === 'embedded' ? embedding : undefined))
      if (!payment || !session) return sendHtml(request, reply, 404, notFoundPageHtml({ assets: deps.assets, t: en }))
      return sendHtml(request, reply, 200, checkoutPageHtml({ session, token: deps.tokens.issue(payment.id), assets: deps.assets, t: en }))
    } catch (error) {
      if (!(error instanceof DatabaseUnavailable)) throw error
      // A buyer gets a page that tries again by itself, not the API's JSON.
      reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
      const page = unavailablePageHtml({ assets: deps.assets, t: en, reloadAfterSeconds: DATABASE_RETRY_AFTER_SECONDS + 3 })
      return sendHtml(request, reply, 503, page)
    }
  })
}
