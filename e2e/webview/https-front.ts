// Till behind HTTPS, as a WebView host requires (spec 4.8 lets only https and about load): a TLS front on
// 127.0.0.1 with a certificate made at run time, passing every request on to the service's HTTP port.
import { once } from 'node:events'
import { request as httpRequest } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { localhostCertificate } from '@till/demo/certificate'

export interface HttpsFront {
  /** https://127.0.0.1:<port> */
  origin: string
  /** Where requests go from now on: the service's http://127.0.0.1:<port>. */
  forwardTo(target: string): void
  close(): Promise<void>
}

export async function startHttpsFront(): Promise<HttpsFront> {
  const { key, cert } = await localhostCertificate()
  let target: URL | undefined
  const server: Server = createServer({ key, cert }, (incoming, outgoing) => {
    if (!target) return outgoing.writeHead(503).end()
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      },
    )
    upstream.on('error', () => outgoing.destroy())
    incoming.pipe(upstream)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwardTo: (url) => {
      target = new URL(url)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
