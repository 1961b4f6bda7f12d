import type {
  CheckoutConfirmRequest,
  DevWalletRequest,
  CheckoutStatus,
  ErrorBody,
  MerchantPaymentStatus,
  PaymentOptionsResponse,
} from '@till/contract'
import type { Notice } from './model.ts'

/** A failed gateway call: `status` 0 means the service was not reached at all. */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** What the error body says beyond its message: the first field it refuses, and its details. */
    readonly body: Pick<ErrorBody, 'details' | 'issues'> = {},
  ) {
    super(message)
    this.name = 'GatewayError'
  }
}

/** What the buyer is told when a call the page made for them failed. */
export function failureNotice(error: unknown): Notice {
  if (!(error instanceof GatewayError)) return { kind: 'unknown' }
  if (error.status === 0) return { kind: 'network' }
  if (error.status === 429) return { kind: 'rateLimited' }
  if (error.status === 409) return { kind: 'conflict' }
  return { kind: 'unknown' }
}

/**
 * The page's side of the gateway API: one payment, the checkout token the page was served with, and
 * relative URLs, so the page works under whatever prefix the operator serves it.
 */
export function gateway(input: { paymentId: string; token: string; base?: string }) {
  const root = `${input.base ?? './api/payments/'}${encodeURIComponent(input.paymentId)}`

  async function call<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
    let response: Response
    try {
      response = await fetch(`${root}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          'Checkout-Token': input.token,
          Accept: 'application/json',
          ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: init.body === undefined ? null : JSON.stringify(init.body),
        signal: init.signal ?? null,
        credentials: 'omit',
        cache: 'no-store',
      })
    } catch (error) {
      if (init.signal?.aborted) throw error
      throw new GatewayError(0, 'network', error instanceof Error ? error.message : String(error))
    }
    const body: unknown = await response.json().catch(() => undefined)
    if (!response.ok) {
      const error = (body ?? {}) as Partial<ErrorBody>
      const { details, issues } = error
      throw new GatewayError(response.status, error.code ?? 'unknown', error.message ?? response.statusText, { details, issues })
    }
    return body as T
  }

  return {
    options: (signal?: AbortSignal) => call<PaymentOptionsResponse>('/options', { signal }),
    confirm: (request: CheckoutConfirmRequest) => call<CheckoutStatus>('/confirm', { method: 'POST', body: request }),
    expire: () => call<CheckoutStatus>('/expire', { method: 'POST', body: {} }),
    /** A local chain's dev wallet: Till answers its EIP-1193 requests (sandbox configurations only). */
    devWallet: (request: DevWalletRequest) => call<{ result: unknown }>('/dev-wallet', { method: 'POST', body: request }),
    /** Answers when the status is no longer `after`, or after `waitMs` with the unchanged status. */
    status: (after: MerchantPaymentStatus, waitMs: number, signal: AbortSignal) =>
      call<CheckoutStatus>(`/status?after=${after}&waitMs=${waitMs}`, { signal }),
  }
}

export type Gateway = ReturnType<typeof gateway>
