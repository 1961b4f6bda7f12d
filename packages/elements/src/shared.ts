// What <pay-button> and <pay-return> share: their base class (the request, its abort, the state, the error,
// the events), the spinner and its styles. Kept small on purpose: both elements together must weigh at most
// 1.25× a bare Lit element (bench/weight.ts).
//
// Internal members end in `_` (`state_`, `ask_`): the prebuilt bundle shortens exactly those names
// (`mangleProps` in build.ts), as esbuild does not rename properties otherwise.
import { css, html, LitElement, type CSSResultGroup } from 'lit'

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

/** Why a request failed: the arguments of `fail_`. */
type Fault = [code: string, status?: number, message?: string]

/** A JSON body's fields (none if it is not an object), readable without `any`. */
export const fields = (body: unknown): Partial<Record<string, unknown>> => Object(body)

/** In the button while it works, before the view while the return page checks. */
export const spinner = html`<span part="spinner"></span>`

/**
 * The two elements' common part: `state_` is what they show (a state or view, also the name of its slot),
 * `ask_` the one request to the merchant backend at a time, JSON both ways.
 */
export abstract class PayElement<State extends string, Reply> extends LitElement {
  /**
   * Both elements' `:host` basics and spinner: within the line's height, so showing it moves nothing; slower,
   * not gone, for reduced motion (it still means "working").
   */
  static override styles: CSSResultGroup =
    css`:host([hidden]){display:none}[part=spinner]{display:inline-block;padding:.25em;vertical-align:-.1em;margin-inline-end:.5em;border:.15em solid;border-right-color:#0000;border-radius:50%;animation:s 1s linear infinite}@keyframes s{to{rotate:1turn}}@media (prefers-reduced-motion:reduce){[part=spinner]{animation-duration:3s}}`

  abstract state_: State
  /** After the error wording in the error state: a space and the error's message; else empty. */
  message_ = ''
  abort_?: AbortController
  timer_?: ReturnType<typeof setTimeout>

  /** Whether the reply of a 2xx answer is the protocol's. */
  abstract valid_(body: unknown): body is Reply
  /** The protocol's reply, of the current request. */
  abstract done_(reply: Reply): void

  override disconnectedCallback() {
    super.disconnectedCallback()
    this.stop_()
  }

  /** A state in progress (checking, processing, working, redirecting): they all end in -ing. */
  busy_() {
    return /ing$/.test(this.state_)
  }

  /** Shows `state` (with `message` after the error wording). */
  set_(state: State, message = '') {
    this.state_ = state
    this.message_ = message
    this.requestUpdate()
  }

  /** Aborts the request under way and the next poll, if any. */
  stop_() {
    this.abort_?.abort()
    clearTimeout(this.timer_)
  }

  /** Dispatches a bubbling, composed event; false when a listener called `preventDefault()`. */
  fire_(type: string, detail: unknown, cancelable?: boolean) {
    return this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }))
  }

  /** Shows the error state with the error's message, and fires `pay-error`. */
  fail_(code: string, status?: number, message = 'Please try again.') {
    this.set_('error' as State, ` ${message}`)
    this.fire_('pay-error', { code, message, status } satisfies PayErrorDetail)
  }

  /**
   * Asks the backend, aborting the request before: a POST when there is a body, else a GET (never from the
   * HTTP cache: an error answer can be heuristically cacheable). Then `done_` with a valid reply or
   * `fail_`, unless this request was aborted meanwhile.
   */
  async ask_(url: string, body?: string) {
    this.stop_()
    this.abort_ = new AbortController()
    const { signal } = this.abort_
    const json = 'application/json'
    let reply: unknown
    let fault: Fault | undefined = ['network_error']
    try {
      const response = await fetch(url, {
        method: body && 'POST',
        headers: body ? { accept: json, 'content-type': json } : { accept: json },
        body,
        signal,
        cache: 'no-store',
      })
      const status = response.status
      reply = await response.json().catch(() => 0)
      const { code, message } = fields(reply)
      fault = !response.ok
        ? typeof code === 'string' && typeof message === 'string'
          ? [code, status, message]
          : ['http_error', status]
        : this.valid_(reply)
          ? undefined
          : ['invalid_reply', status]
    } catch {}
    if (signal.aborted) return
    if (fault) this.fail_(...fault)
    else this.done_(reply as Reply)
  }
}
