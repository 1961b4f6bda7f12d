import type { FastifyReply } from 'fastify'

/**
 * The checkout page handles a buyer's money, so it allows nothing it does not use: scripts and styles only
 * from itself (no inline script at all), connections only to itself, images from itself or any HTTPS
 * origin (merchant logos, spec 8.2), and no framing by anyone (clickjacking on a pay button).
 */
export const CHECKOUT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

export function setCheckoutSecurityHeaders(reply: FastifyReply, options: { https: boolean }) {
  reply.header('Content-Security-Policy', CHECKOUT_CSP)
  // The payment id in the page's URL is a capability: never hand it to the sites the page links to.
  // Headers rather than <meta> tags in the page: every byte of its HTML is on a buyer's critical path.
  reply.header('Referrer-Policy', 'no-referrer')
  // A payment's page is nobody's search result.
  reply.header('X-Robots-Tag', 'noindex')
  reply.header('X-Frame-Options', 'DENY')
  reply.header('X-Content-Type-Options', 'nosniff')
  reply.header('Cross-Origin-Opener-Policy', 'same-origin')
  reply.header('Cross-Origin-Resource-Policy', 'same-origin')
  reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()')
  if (options.https) reply.header('Strict-Transport-Security', 'max-age=31536000')
}
