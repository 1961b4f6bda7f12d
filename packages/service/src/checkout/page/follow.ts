import type { CheckoutStatus } from '@till/contract'
import { GatewayError, type Gateway } from './api.ts'

const LONG_POLL_MS = 25_000
const MAX_BACKOFF_MS = 15_000

export type Following = {
  api: Pick<Gateway, 'status'>
  /** Aborts when the page stops: the poll in flight and any pause end with it. */
  signal: AbortSignal
  wait(ms: number, signal: AbortSignal): Promise<void>
  /** The status the page shows now: each poll waits for the payment to leave it. */
  current(): CheckoutStatus
  onStatus(status: CheckoutStatus): void
  /** The service failed to answer twice in a row: the page says it is retrying. */
  onUnreachable(): void
}

/**
 * Long-polls the payment's status until it is final, backing off while the service is unreachable and
 * for longest when it says too many requests came from here.
 */
export async function followStatus(following: Following): Promise<void> {
  const { api, signal } = following
  let failures = 0
  while (!signal.aborted && !following.current().isFinal) {
    try {
      const status = await api.status(following.current().status, LONG_POLL_MS, signal)
      failures = 0
      following.onStatus(status)
    } catch (error) {
      if (signal.aborted) return
      failures++
      if (failures > 1) following.onUnreachable()
      const waitMs = error instanceof GatewayError && error.status === 429 ? MAX_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, 500 * 2 ** failures)
      await following.wait(waitMs, signal)
    }
  }
}
