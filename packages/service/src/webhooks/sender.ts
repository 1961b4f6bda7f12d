import { request } from 'undici'
import type { AddressPolicy } from '../net/public-address.ts'
import { defaultLookup, type LookupAll, pinnedPools, reasonOf, TargetRefused } from '../net/pinned.ts'

/** How long one attempt may take, connection to last byte (issue 13). */
export const ATTEMPT_TIMEOUT_MS = 10_000

export type SendResult = { statusCode: number | null; latencyMs: number; error: string | null }

export type WebhookSender = ((url: string, headers: Record<string, string>, body: string) => Promise<SendResult>) & {
  /** Closes the kept-alive connections (the dispatcher's stop). */
  close?: () => Promise<void>
}

export type WebhookSendOptions = {
  policy: AddressPolicy
  lookup?: LookupAll | undefined
  /** Extra trusted CAs (tests); production trusts NODE_EXTRA_CA_CERTS as Node does. */
  ca?: string[] | undefined
  /** Per attempt, connection to last byte: 10 s (issue 13). */
  timeoutMs?: number
  /** Test hook: called with the address and port of each new connection (one may serve many attempts). */
  onDial?: ((address: string, port: number) => void) | undefined
  /**
   * Test hook: the deadline itself, in place of `timeoutMs`: aborting it ends the attempt in flight as 10 s
   * of silence would, so a test of the timeout never waits (every later attempt then fails at once too).
   */
  signal?: AbortSignal | undefined
}

/**
 * POSTs one delivery: to a public address only (the same guard as logos, checked again at every attempt since
 * DNS may have changed), no redirects followed (a 3xx is a failed attempt), 10 s in all. Any 2xx delivers.
 * Connections are kept alive between attempts, per host name and checked address (`pinnedPools`): a TLS
 * handshake per attempt capped a backlog's dispatch at about 300 a second (bench/webhooks).
 */
export function webhookSender(options: WebhookSendOptions): WebhookSender {
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS
  const pools = pinnedPools({
    policy: options.policy,
    lookup: options.lookup ?? defaultLookup,
    ca: options.ca,
    connectTimeoutMs: timeoutMs,
    onDial: options.onDial,
    label: 'webhook URL',
  })
  const send: WebhookSender = async (target, headers, body) => {
    const started = performance.now()
    const latency = () => Math.round(performance.now() - started)
    const deadline = options.signal ?? AbortSignal.timeout(timeoutMs)
    try {
      const url = new URL(target)
      const response = await request(url, {
        dispatcher: await pools.dispatcherFor(url, deadline),
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
    }
  }
  return Object.assign(send, { close: pools.close })
}
