import { request } from 'undici'
import type { AddressPolicy } from '../net/public-address.ts'
import { defaultLookup, type LookupAll, pinnedConnections, reasonOf, TargetRefused } from '../net/pinned.ts'

export type SendResult = { statusCode: number | null; latencyMs: number; error: string | null }

export type WebhookSender = (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>

export type WebhookSendOptions = {
  policy: AddressPolicy
  lookup?: LookupAll | undefined
  /** Extra trusted CAs (tests); production trusts NODE_EXTRA_CA_CERTS as Node does. */
  ca?: string[] | undefined
  /** Per attempt, connection to last byte: 10 s (issue 13). */
  timeoutMs?: number
  onDial?: ((address: string, port: number) => void) | undefined
}

/**
 * POSTs one delivery: to a public address only (the same guard as logos, checked again at every attempt since
 * DNS may have changed), no redirects followed (a 3xx is a failed attempt), 10 s in all. Any 2xx delivers.
 */
export function webhookSender(options: WebhookSendOptions): WebhookSender {
  const timeoutMs = options.timeoutMs ?? 10_000
  return async (target, headers, body) => {
    const started = performance.now()
    const latency = () => Math.round(performance.now() - started)
    const deadline = AbortSignal.timeout(timeoutMs)
    const connections = pinnedConnections({
      policy: options.policy,
      lookup: options.lookup ?? defaultLookup,
      ca: options.ca,
      connectTimeoutMs: timeoutMs,
      onDial: options.onDial,
      label: 'webhook URL',
    })
    try {
      const url = new URL(target)
      await connections.check(url, deadline)
      const response = await request(url, {
        dispatcher: connections.dispatcher,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Till-webhooks' },
        body,
        signal: deadline,
      })
      // The answer's body is not used; read a little so the connection ends cleanly, never all of it.
      await response.body.dump({ limit: 64 * 1024 }).catch(() => {})
      return { statusCode: response.statusCode, latencyMs: latency(), error: null }
    } catch (error) {
      const message =
        error instanceof TargetRefused
          ? error.message
          : deadline.aborted
            ? `no answer within ${timeoutMs / 1000} s`
            : `could not reach the endpoint: ${reasonOf(error)}`
      return { statusCode: null, latencyMs: latency(), error: message }
    } finally {
      connections.destroy()
    }
  }
}
