import { BridgeMessage, interpretBridgeMessage } from '@till/contract'

/**
 * The page says the payment succeeded. This is a prompt, never proof: it only ever says "now verify
 * server-side". Ask your backend to check the payment's status with Till (spec 4.4) and mark the order paid
 * only when that says so. Anyone who can run script in the WebView can post this message.
 */
export interface BridgeSuccessClaim {
  kind: 'success'
  /** The page's human-readable confirmation summary, when it sent one. */
  message?: string
}

/** The page says the payment failed: show `error` (when given) and let the buyer try again. */
export interface BridgeFailureReport {
  kind: 'failure'
  /** The page's human-readable reason, when it sent one. */
  error?: string
}

/** Not a bridge message the host acts on (spec 4.8 rules 1–2); `reason` says why, for logs. */
export interface BridgeIgnored {
  kind: 'ignored'
  reason: string
}

/** A bridge message the host acts on: a success claim to verify server-side, or a failure to show. */
export type BridgeOutcomeResult = BridgeSuccessClaim | BridgeFailureReport

/** What one bridge message says. A success only ever says "now verify server-side". */
export type BridgeResult = BridgeOutcomeResult | BridgeIgnored

function whyIgnored(raw: string): string {
  let json: unknown
  try {
    json = JSON.parse(raw)
  } catch {
    return 'not valid JSON'
  }
  if (!BridgeMessage.safeParse(json).success) return 'not a bridge message: no type PAY_SUCCESS/PAY_FAILURE and no boolean success'
  return 'type and success contradict each other'
}

/**
 * Reads one message the checkout page posted through the bridge (`window.NativeWebView.postMessage`,
 * spec 4.8), with `@till/contract`'s `interpretBridgeMessage`:
 * - `success`: `type` PAY_SUCCESS or `success: true`. NOT proof of payment: it only ever says "now verify
 *   server-side". Have your backend check the payment's status (spec 4.4) before marking the order paid.
 * - `failure`: `type` PAY_FAILURE or `success: false`, with the page's reason in `error` when it sent one.
 * - `ignored`: not a string, not valid JSON, neither field, or `type` and `success` contradicting each other.
 */
export function parseBridgeMessage(data: unknown): BridgeResult {
  if (typeof data !== 'string') return { kind: 'ignored', reason: `not a string (got ${data === null ? 'null' : typeof data})` }
  const outcome = interpretBridgeMessage(data)
  if (outcome === null) return { kind: 'ignored', reason: whyIgnored(data) }
  // interpretBridgeMessage accepted it, so it is JSON that the schema reads.
  const { message, error } = BridgeMessage.parse(JSON.parse(data))
  if (outcome === 'success') return message === undefined ? { kind: 'success' } : { kind: 'success', message }
  return error === undefined ? { kind: 'failure' } : { kind: 'failure', error }
}
