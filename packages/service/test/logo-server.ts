import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { selfSignedCertificate } from './certificate.ts'
import sharp from 'sharp'

/** A square (or not) logo made at run time; `alpha` adds transparency. */
export async function logoImage(
  width: number,
  height = width,
  options: { format?: 'png' | 'jpeg' | 'webp' | 'avif'; color?: string; alpha?: boolean } = {},
): Promise<Buffer> {
  const image = sharp({
    create: { width, height, channels: options.alpha ? 4 : 3, background: options.color ?? (options.alpha ? '#2a9d8f80' : '#2a9d8f') },
  })
  const format = options.format ?? 'png'
  return format === 'avif' ? image.avif({ effort: 0 }).toBuffer() : image.toFormat(format).toBuffer()
}

export type LogoServer = {
  /** `https://<host>:<port>` for a name the test's lookup maps to 127.0.0.1 (or 127.0.0.1 itself). */
  url(path: string, host?: string): string
  /** What the server answers at `path` from now on. */
  serve(path: string, body: Buffer | string, headers?: Record<string, string>): void
  /** The CA (self-signed certificate) to trust, and the DNS the app should use. */
  ca: string
  lookup: (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>
  /** Requests received, by path. */
  hits(path: string): number
  close(): Promise<void>
}

/** Names the fake DNS resolves to the server on 127.0.0.1; any other name does not resolve. */
export const LOGO_HOSTS = ['logos.till-tea.com', 'cdn.partner-assets.com'] as const

/**
 * An HTTPS logo server on 127.0.0.1 with a certificate made at run time for LOGO_HOSTS and 127.0.0.1, so a
 * logo import goes through real TLS and HTTP without leaving loopback.
 */
export async function startLogoServer(): Promise<LogoServer> {
  const pems = await selfSignedCertificate(LOGO_HOSTS)
  const files = new Map<string, { body: Buffer | string; headers: Record<string, string> }>()
  const hits = new Map<string, number>()
  const server = https.createServer({ key: pems.key, cert: pems.cert }, (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/'
    hits.set(path, (hits.get(path) ?? 0) + 1)
    const file = files.get(path)
    if (!file) {
      response.writeHead(404).end('not found')
      return
    }
    response.writeHead(200, { 'content-type': 'image/png', ...file.headers }).end(file.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (path, host = LOGO_HOSTS[0]) => `https://${host}:${port}${path}`,
    serve: (path, body, headers = {}) => files.set(path, { body, headers }),
    ca: pems.cert,
    lookup: async (hostname) => {
      if ((LOGO_HOSTS as readonly string[]).includes(hostname)) return [{ address: '127.0.0.1', family: 4 }]
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    },
    hits: (path) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
