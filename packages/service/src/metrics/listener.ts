import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TillMetrics } from './catalog.ts'

export type MetricsListener = { url: string; close(): Promise<void> }

/**
 * The metrics endpoint, on a listener of its own (`--metrics-port`, loopback by default) so it is never
 * served on the public port: `GET /metrics` in Prometheus's text format, anything else 404.
 */
export async function listenForMetrics(metrics: TillMetrics, at: { host: string; port: number }): Promise<MetricsListener> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at GET /metrics\n')
      return
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) =>
        response.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics could not be collected: ${String(error)}\n`),
    )
  })
  server.keepAliveTimeout = 5_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(at.port, at.host, () => resolve())
  })
  const { address, port } = server.address() as AddressInfo
  const host = address.includes(':') ? `[${address}]` : address
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
