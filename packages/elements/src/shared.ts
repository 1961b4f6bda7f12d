// What <pay-button> and <pay-return> share: their base class (the request, its abort, the state, the error,
// the events), the spinner and its styles. Kept small on purpose: the prebuilt bundle of both elements must
// weigh at most 8 KB gzip with Lit (bench/weight.ts).
//
// Members only one class uses are `#private`. Those the base class shares with the elements are `protected`,
// `@internal` and start with `_` (`_state`, `_ask`; also `<pay-return>`'s `_check`, which the tests use):
// the prebuilt bundle shortens exactly those names (`mangleProps` in build.ts), as esbuild does not rename
// properties otherwise.
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

/** Why a request failed: the arguments of `_fail`. */
type Fault = [code: string, status?: number, message?: string]

/** A JSON body's fields (none if it is not an object), readable without `any`. */
export const fields = (body: unknown): Partial<Record<string, unknown>> => Object(body)

/** In the button while it works, before the view while the return page checks. */
export const spinner = html`<span part="spinner"></span>`

/**
 * The two elements' common part: `_state` is what they show (a state or view, also the name of its slot),
 * `_ask` the one request to the merchant backend at a time, JSON both ways.
 */
export abstract class PayElement<State extends string, Reply> extends LitElement {
  /**
   * Both elements' `:host` basics and spinner: within the line's height, so showing it moves nothing; slower,
   * not gone, for reduced motion (it still means "working").
   */
  static override styles: CSSResultGroup = css`
    :host([hidden]) {
      display: none;
    }

    [part=spinner] {
      display: inline-block;
      padding: .25em;
      vertical-align: -.1em;
      margin-inline-end: .5em;
      border: .15em solid;
      border-right-color: #0000;
      border-radius: 50%;
      animation: spin 1s linear infinite;
    }

    @keyframes spin {
      to {
        rotate: 1turn;
      }
    }

    @media (prefers-reduced-motion: reduce) {
      [part=spinner] {
        animation-duration: 3s;
      }
    }
  `

  /** @internal */
  protected abstract _state: State

  /**
   * After the error wording in the error state: a space and the error's message; else empty.
   * @internal
   */
  protected _message = ''

  /**
   * The next poll's timer, if any (`<pay-return>` sets it).
   * @internal
   */
  protected _timer?: ReturnType<typeof setTimeout>

  /** Aborts the request under way, if any. */
  #abort?: AbortController

  /**
   * Whether the reply of a 2xx answer is the protocol's.
   * @internal
   */
  protected abstract _valid(body: unknown): body is Reply

  /**
   * The protocol's reply, of the current request.
   * @internal
   */
  protected abstract _done(reply: Reply): void

  override disconnectedCallback() {
    super.disconnectedCallback()
    this._stop()
  }

  /**
   * A state in progress (checking, processing, working, redirecting): they all end in -ing.
   * @internal
   */
  protected _busy() {
    return /ing$/.test(this._state)
  }

  /**
   * Shows `state` (with `message` after the error wording).
   * @internal
   */
  protected _set(state: State, message = '') {
    this._state = state
    this._message = message
    this.requestUpdate()
  }

  /**
   * Aborts the request under way and the next poll, if any.
   * @internal
   */
  protected _stop() {
    this.#abort?.abort()
    clearTimeout(this._timer)
  }

  /**
   * Dispatches a bubbling, composed event; false when a listener called `preventDefault()`.
   * @internal
   */
  protected _fire(type: string, detail: unknown, cancelable?: boolean) {
    return this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }))
  }

  /**
   * Shows the error state with the error's message, and fires `pay-error`.
   * @internal
   */
  protected _fail(code: string, status?: number, message = 'Please try again.') {
    this._set('error' as State, ` ${message}`)
    this._fire('pay-error', { code, message, status } satisfies PayErrorDetail)
  }

  /**
   * Asks the backend, aborting the request before: a POST when there is a body, else a GET (never from the
   * HTTP cache: an error answer can be heuristically cacheable). Then `_done` with a valid reply or
   * `_fail`, unless this request was aborted meanwhile.
   * @internal
   */
  protected async _ask(url: string, body?: string) {
    this._stop()
    this.#abort = new AbortController()
    const { signal } = this.#abort
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
        : this._valid(reply)
          ? undefined
          : ['invalid_reply', status]
    } catch {}
    if (signal.aborted) return
    if (fault) this._fail(...fault)
    else this._done(reply as Reply)
  }
}
