// What <pay-button> and <pay-return> share: the one request helper, the events, the spinner. Kept small
// on purpose: both elements together must weigh at most 1.25× a bare Lit element (bench/weight.ts).
import { css } from 'lit'

/**
 * `detail` of `pay-error`, from either element. `code` is the backend's own code when it answered with a
 * `MerchantErrorBody`, else one of the elements' codes:
 *
 * - `network_error`: no answer (offline, CORS, the backend is down);
 * - `http_error`: a 4xx/5xx answer without an error body;
 * - `invalid_reply`: a 2xx answer whose body is not the protocol's (for `<pay-button>`: also a
 *   `gatewayUrl` that is not an absolute http(s) URL);
 * - `not_configured`: `<pay-button>` has no `action` and no form, `<pay-return>` no `verify`.
 *
 * `message` is what the element shows after its error wording: the backend's message, or "Please try again.".
 */
export interface PayErrorDetail {
  code: string
  message: string
  /** The HTTP status, when the backend answered. */
  status?: number
}

/** `pay-error`: a request failed and the element shows its error view. */
export type PayErrorEvent = CustomEvent<PayErrorDetail>

export const failure = (code: string, status?: number, message = 'Please try again.'): PayErrorDetail => ({ code, message, status })

/** A JSON body's fields (none if it is not an object), readable without `any`. */
export const fields = (body: unknown): Partial<Record<string, unknown>> => Object(body)

/**
 * One request to the merchant backend, JSON both ways: a POST when there is a body, else a GET. Never
 * rejects; an aborted request resolves with a `network_error`, so callers check their signal first.
 */
export async function ask<T>(
  url: string,
  valid: (body: unknown) => body is T,
  signal: AbortSignal,
  body?: string,
): Promise<{ value: T } | { error: PayErrorDetail }> {
  try {
    const json = 'application/json'
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      headers: body ? { accept: json, 'content-type': json } : { accept: json },
      body,
      signal,
      // A status must never come from the HTTP cache (an error answer can be heuristically cacheable).
      cache: 'no-store',
    })
    const reply: unknown = await response.json().catch(() => null)
    const { code, message } = fields(reply)
    const status = response.status
    return response.ok
      ? valid(reply)
        ? { value: reply }
        : { error: failure('invalid_reply', status) }
      : { error: typeof code === 'string' && typeof message === 'string' ? failure(code, status, message) : failure('http_error', status) }
  } catch {
    return { error: failure('network_error') }
  }
}

/** Dispatches a bubbling, composed event; false when a listener called `preventDefault()`. */
export const fire = (target: EventTarget, type: string, detail: unknown, cancelable = false): boolean =>
  target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }))

/**
 * Both elements' `:host` basics and spinner: within the line's height, so showing it moves nothing; slower,
 * not gone, for reduced motion (it still means "working").
 */
export const styles = css`:host([hidden]){display:none}[part=spinner]{display:inline-block;width:.5em;height:.5em;vertical-align:-.1em;margin-inline-end:.5em;border:.15em solid;border-right-color:#0000;border-radius:50%;animation:s 1s linear infinite}@keyframes s{to{rotate:1turn}}@media (prefers-reduced-motion:reduce){[part=spinner]{animation-duration:3s}}`
