import type { FastifyInstance } from 'fastify'
import { ApiError } from '../errors.ts'
import type { LogoStore } from '../logos/index.ts'
import { LOGO_SIZES } from '../logos/index.ts'

const FILE = /^([0-9]{1,4})\.webp$/
const SIZES = new Set<number>(Object.values(LOGO_SIZES))
const DIGEST = /^[0-9a-f]{64}$/

/**
 * Till's copies of merchants' logos, beside the checkout page (logos/urls.ts). The digest names the bytes,
 * so they are cached forever; nosniff and a CSP of their own keep a browser from reading them as anything
 * but an image, and other origins (a partner's dashboard listing payments) may show them.
 */
export function logoRoutes(app: FastifyInstance, deps: { logos: LogoStore }) {
  app.get<{ Params: { digest: string; file: string } }>('/checkout/logos/:digest/:file', async (request, reply) => {
    const { digest, file } = request.params
    const size = Number(FILE.exec(file)?.[1])
    // Only the sizes Till makes are looked up: anything else is a 404 without a query.
    const logo = DIGEST.test(digest) && SIZES.has(size) ? await deps.logos.read(digest, size) : undefined
    if (!logo) throw new ApiError('not_found', `No logo ${digest}/${file}.`)
    return reply
      .type(logo.contentType)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('ETag', `"${digest}-${size}"`)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(logo.bytes)
  })
}
