// The checkout's HTTPS front in the demo. A buyer opens Till's checkout page over HTTPS, as they would in
// production behind the operator's TLS-terminating reverse proxy (docs/operating.md), with the certificate
// the shop uses; the shop's backend talks to Till's API directly over loopback HTTP, server to server. A
// browser then marks no page of the demo "Not secure" beyond the one certificate warning.
//
// Only the checkout's paths are passed on (the page, its assets, its gateway API and merchants' logos):
// Till's API is not a browser's business.
import { once } from 'node:events'
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'

const CHECKOUT_PREFIX = '/checkout'

export type CheckoutFront = {
  /** The front's address, `https://127.0.0.1:<port>`; Till's checkout URL is this plus `/checkout`. */
  origin: string
  /** Where requests go from now on: Till's own address, once it listens. */
  forwardTo(tillBaseUrl: string): void
  close(): Promise<void>
}

function passOn(target: URL, request: IncomingMessage, response: ServerResponse): void {
  const upstream = httpRequest(
    {
      host: target.hostname,
      port: target.port,
      method: request.method,
      path: request.url,
      headers: {
        ...request.headers,
        // Till runs with --trust-proxy: the buyer's address counts for its rate limits, not the front's.
        'x-forwarded-for': request.socket.remoteAddress ?? '',
        'x-forwarded-proto': 'https',
      },
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    },
  )
  upstream.on('error', () => {
    if (response.headersSent) response.destroy()
    else response.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' }).end('Till did not answer.')
  })
  // A buyer who leaves ends the request upstream too: a long-poll must not outlive its page.
  response.on('close', () => upstream.destroy())
  request.pipe(upstream)
}

export async function startCheckoutFront(options: { key: string; cert: string; port: number }): Promise<CheckoutFront> {
  let target: URL | undefined
  const server = createServer({ key: options.key, cert: options.cert }, (request, response) => {
    const path = request.url ?? '/'
    if (path !== CHECKOUT_PREFIX && !path.startsWith(`${CHECKOUT_PREFIX}/`)) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: this address serves the checkout only.')
    } else if (target === undefined) {
      response.writeHead(503, { 'retry-after': '1', 'content-type': 'text/plain; charset=utf-8' }).end('Till is starting.')
    } else {
      passOn(target, request, response)
    }
  })
  server.listen(options.port, '127.0.0.1')
  await once(server, 'listening')
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardTo(tillBaseUrl) {
      target = new URL(tillBaseUrl)
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
