import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { selfSignedCertificate } from './certificate.ts'

export type Received = { path: string; headers: Record<string, string>; body: string }

/**
 * How the receiver answers one delivery: a status code, one with headers (a redirect's Location), or 'hang'
 * (never answers until closed).
 */
export type Answer = number | { status: number; headers: Record<string, string> } | 'hang'

export type WebhookReceiver = {
  url(path?: string): string
  /** The answers to the next deliveries, in order; after them every delivery gets 200. */
  answer(...answers: Answer[]): void
  received: Received[]
  ca: string
  lookup: (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>
  /** Stops listening, so connections are refused (an endpoint that is down), until `up`. */
  down(): Promise<void>
  /**
   * While on, every request is cut off unread and not recorded (an endpoint whose server drops what it
   * gets), without giving up the port, which another process could take meanwhile.
   */
  dropAll(on: boolean): void
  /** Listens again, on the same port: the endpoint's URL is unchanged. */
  up(): Promise<void>
  close(): Promise<void>
}

export const RECEIVER_HOST = 'hooks.corner-shop.com'

/**
 * A merchant's webhook endpoint: HTTPS on 127.0.0.1 with a certificate made at run time, as RECEIVER_HOST.
 * `onReceived` is told of each delivery as it arrives, before it is answered (the bench times arrivals).
 */
export async function startWebhookReceiver(options: { onReceived?: (received: Received) => void } = {}): Promise<WebhookReceiver> {
  const pems = await selfSignedCertificate([RECEIVER_HOST])
  const received: Received[] = []
  let answers: Answer[] = []
  let dropping = false
  const server = https.createServer({ key: pems.key, cert: pems.cert }, (request, response) => {
    if (dropping) {
      request.socket.destroy()
      return
    }
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]))
      const delivery = { path: request.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8') }
      received.push(delivery)
      options.onReceived?.(delivery)
      const answer = answers.shift() ?? 200
      if (typeof answer === 'number') response.writeHead(answer).end()
      else if (answer !== 'hang') response.writeHead(answer.status, answer.headers).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return {
    url: (path = '/webhooks') => `https://${RECEIVER_HOST}:${port}${path}`,
    answer: (...next) => {
      answers = next
    },
    received,
    ca: pems.cert,
    lookup: async (hostname) => {
      if (hostname === RECEIVER_HOST) return [{ address: '127.0.0.1', family: 4 }]
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    },
    down: () => stop(),
    dropAll: (on) => {
      dropping = on
    },
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => stop(),
  }
}
