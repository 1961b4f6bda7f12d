import { css, html, type PropertyValues } from 'lit'
import { MERCHANT_STATUSES } from '@till/contract/statuses'
import type { ReturnStatus, VerifyReply } from './protocol.ts'
import { fields, PayElement, spinner, type PayErrorEvent } from './shared.ts'

/** What `<pay-return>` shows; also the names of its slots. `pending` and `processing` both show `processing`. */
export type ReturnView = 'checking' | Exclude<ReturnStatus, 'pending'> | 'error'

/** `pay-status`: the backend answered; `detail` is its {@link VerifyReply} (see the element for the one exception). */
export type PayStatusEvent = CustomEvent<VerifyReply>

// The contract's statuses, and the one a backend adds when the URL names another payment.
const STATUSES: readonly unknown[] = [...MERCHANT_STATUSES, 'mismatch'] satisfies ReturnStatus[]

const TEXT: Record<ReturnView, string> = {
  checking: 'Checking your payment…',
  processing: 'Your payment is being processed…',
  succeeded: 'Payment received. Thank you!',
  failed: 'The payment failed.',
  expired: 'The payment expired.',
  cancelled: 'The shop cancelled this payment.',
  mismatch: 'This payment is not the order’s.',
  error: 'Could not check your payment.',
}

/**
 * The return page's status: put it on the page the checkout sends the buyer back to (`successUrl` and
 * `errorUrl`, which get `?payment_id=…`). It asks the merchant backend, never the URL: it sends
 * `GET <verify><the page's query string>`, shows what the backend says, and asks again every `pollInMs`
 * while the payment is not final. A `status` or anything else in the URL is only passed on, never shown.
 *
 * Without `payment_id` in the page's URL it shows `mismatch` without asking (there is nothing to verify),
 * and fires `pay-status` with `{ status: 'mismatch', isFinal: true, pollInMs: 0 }`.
 *
 * Views: `checking` (before the first answer), `processing` (pending or processing), `succeeded`, `failed`,
 * `expired`, `cancelled`, `mismatch`, and `error` (no answer, or an error answer; with a retry button). Each has a slot
 * of its name for the shop's own wording (headings included), with English defaults. The views replace
 * each other in one polite live region; focus only moves when the retry button that had it goes away.
 *
 * ```html
 * <pay-return verify="/pay/verify">
 *   <h2 slot="succeeded">Thank you! Your order is on its way.</h2>
 * </pay-return>
 * ```
 *
 * @summary Verifies a returning buyer's payment with the merchant backend and shows its status.
 * @tag pay-return
 *
 * @slot checking - Before the first answer. Default: "Checking your payment…".
 * @slot processing - The payment is pending or processing. Default: "Your payment is being processed…".
 * @slot succeeded - Default: "Payment received. Thank you!".
 * @slot failed - Default: "The payment failed.".
 * @slot expired - Default: "The payment expired.".
 * @slot cancelled - The shop cancelled the payment before it was paid. Default: "The shop cancelled this payment.".
 * @slot mismatch - The `payment_id` is not the order's payment, or there is none. Default: "This payment is not the order’s.".
 * @slot error - Before the error's message. Default: "Could not check your payment.".
 * @slot retry - The retry button's text. Default: "Try again".
 *
 * @fires {PayStatusEvent} pay-status - On every answer of the backend; `detail` is the `VerifyReply`.
 * @fires {PayErrorEvent} pay-error - The backend could not be reached or answered an error; `detail: { code, message, status? }`. Polling stops until retried.
 *
 * @csspart status - The live region holding the current view; its other part name is the view's (`status succeeded`, …).
 * @csspart spinner - Shown while checking and processing.
 * @csspart retry - The retry button of the error view.
 */
export class PayReturn extends PayElement<ReturnView, VerifyReply> {
  static override properties = {
    verify: {},
    pollInMs: { attribute: 'poll-in-ms', type: Number },
    search: { attribute: false },
  }

  static override styles = [
    PayElement.styles,
    css`
      :host {
        display: block;
      }

      button {
        margin-top: .5em;
        font: inherit;
      }
    `,
  ]

  /**
   * The backend's verify URL. The page's query parameters are added to it, except those it already has
   * (and repeats of one).
   * @attr verify
   */
  declare verify?: string

  /**
   * How long to wait between checks when the backend's reply has no usable `pollInMs` (2000 when this
   * is not a positive number either).
   * @attr poll-in-ms
   */
  declare pollInMs: number

  /** The query string the element reads `payment_id` from and passes on. Default: `location.search`. */
  declare search: string

  /** @internal */
  protected _state: ReturnView = 'checking'

  constructor() {
    super()
    this.pollInMs = 2000
    this.search = location.search
  }

  /**
   * The view on show: `checking`, `processing`, `succeeded`, `failed`, `expired`, `mismatch` or `error`.
   * @readonly
   */
  get view(): ReturnView {
    return this._state
  }

  override connectedCallback() {
    super.connectedCallback()
    if (this.hasUpdated) this._check()
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (this.isConnected && (changed.has('verify') || changed.has('search'))) this._check()
  }

  override render() {
    const view = this._state
    // Line breaks only where whitespace does not show: the bundle's template minifier removes them
    // (@till/template-minifier). The spinner, the view's wording and the message are inline: one line.
    return html`
      <div part="status ${view}" role="status" tabindex="-1">
        ${this._busy() ? spinner : ''}<slot name=${view}>${TEXT[view]}</slot>${this._message}
      </div>
      ${view === 'error' ? html`<button part="retry" @click=${this.#retry}><slot name="retry">Try again</slot></button>` : ''}
    `
  }

  /**
   * Asks the backend (again): also the poll timer's callback, which the tests take into their hands.
   * @internal
   */
  _check = () => {
    this._stop()
    const page = new URLSearchParams(this.search)
    if (!page.has('payment_id')) return this._done({ status: 'mismatch', isFinal: true, pollInMs: 0 })
    if (!this.verify) return this._fail('not_configured')
    const url = new URL(this.verify, document.baseURI)
    for (const [name, value] of page) if (!url.searchParams.has(name)) url.searchParams.append(name, value)
    this._ask(url.href)
  }

  // `pollInMs` is not checked here: a missing or useless one falls back to the `poll-in-ms` attribute.
  /** @internal */
  protected _valid(body: unknown): body is VerifyReply {
    const { status, isFinal } = fields(body)
    return STATUSES.includes(status) && typeof isFinal === 'boolean'
  }

  /** @internal */
  protected _done(reply: VerifyReply) {
    this._set(reply.status === 'pending' ? 'processing' : reply.status)
    this._fire('pay-status', reply)
    // A bad delay (none, NaN, 0) from the reply or the attribute must not turn polling into a busy loop.
    if (!reply.isFinal)
      this._timer = setTimeout(
        this._check,
        [reply.pollInMs, this.pollInMs, 2000].find((ms) => ms > 0),
      )
  }

  // The retry button goes away with the error view: the region takes the focus it had, not the body.
  async #retry() {
    this._set('checking')
    this._check()
    await this.updateComplete
    this.renderRoot.querySelector('div')?.focus()
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-return': PayReturn
  }
  interface GlobalEventHandlersEventMap {
    'pay-status': PayStatusEvent
    'pay-error': PayErrorEvent
  }
}
