import { css, html } from 'lit'
import type { CreatePaymentReply } from './protocol.ts'
import { fields, PayElement, spinner, type PayErrorEvent } from './shared.ts'

/** `detail` of `pay-start`. Listeners may add or change fields of `body` before it is sent. */
export interface PayStartDetail {
  /** The URL the element is about to POST to. */
  action: string
  /** The JSON body: the fallback form's fields, and `orderId` from the `order-id` attribute. */
  body: Record<string, string>
}

/** `pay-start`: about to ask the backend for a payment; cancelable (nothing is sent). */
export type PayStartEvent = CustomEvent<PayStartDetail>
/**
 * `pay-created`: the backend created the payment; `gatewayUrl` is an absolute http(s) URL. Cancelable: unless
 * a listener calls `preventDefault()`, the element sends the buyer there with `location.assign`; when one
 * does, the page takes over and the button is idle again.
 */
export type PayCreatedEvent = CustomEvent<CreatePaymentReply>

/** What `<pay-button>` is doing (its `state` property). */
export type PayButtonState = 'idle' | 'working' | 'redirecting' | 'error'

const TEXT = { working: 'Starting payment…', redirecting: 'Redirecting…', error: 'Payment could not start.' }

/**
 * A payment button for any storefront. On click it asks the merchant's backend for a payment
 * (`POST action`, JSON `{ orderId }` or the fields of its fallback form) and sends the buyer to the
 * payment's `gatewayUrl`. Clicks while it works are ignored, so one click makes one payment.
 *
 * Put a plain form inside it and the button works without JavaScript too: until the element is defined
 * the form is what shows (the backend answers the form post with a 303 to the checkout page); once defined,
 * the element renders its own button and reads the form's `action` and fields instead of showing it.
 *
 * ```html
 * <pay-button>
 *   <form method="post" action="/pay/checkout">
 *     <input type="hidden" name="orderId" value="ord_123">
 *     <button type="submit">Pay €19.99</button>
 *   </form>
 * </pay-button>
 * ```
 *
 * Light DOM content other than the slotted elements below is not rendered once the element is defined.
 *
 * @summary Starts a payment at the merchant backend and sends the buyer to its checkout page.
 * @tag pay-button
 *
 * @slot label - The button's text. Default: the text of the fallback form's submit button, else "Pay".
 * @slot working - Announced while the payment is being created. Default: "Starting payment…".
 * @slot redirecting - Announced while the browser leaves for the checkout page. Default: "Redirecting…".
 * @slot error - Announced when it failed, before the error's message (the backend's, or "Please try again."). Default: "Payment could not start.".
 *
 * @fires {PayStartEvent} pay-start - Before the request; `detail: { action, body }`. Cancelable: nothing is sent.
 * @fires {PayCreatedEvent} pay-created - The payment exists; `detail: { paymentId, gatewayUrl }`. Cancelable: no navigation, the button is idle again.
 * @fires {PayErrorEvent} pay-error - The request failed; `detail: { code, message, status? }`. The button is usable again to retry.
 *
 * @csspart button - The real `<button>`.
 * @csspart label - The wrapper of the label slot.
 * @csspart spinner - Shown in the button while working and redirecting.
 * @csspart status - The polite live region under the button: the working, redirecting and error wording. It keeps one line
 *   free while empty, so the first message moves nothing below it.
 *
 * @cssprop [--pay-button-background=#1d4ed8] - The button's background.
 * @cssprop [--pay-button-color=#fff] - The button's text colour.
 * @cssprop [--pay-button-radius=.375em] - The button's corner radius.
 * @cssprop [--pay-button-font=inherit] - The button's `font` shorthand.
 */
export class PayButton extends PayElement<PayButtonState, CreatePaymentReply> {
  static override properties = {
    action: {},
    orderId: { attribute: 'order-id' },
    disabled: { type: Boolean },
  }

  static override styles = [
    PayElement.styles,
    css`
      :host {
        display: inline-block;
      }

      button {
        border: 0;
        font: var(--pay-button-font, inherit);
        color: var(--pay-button-color, #fff);
        background: var(--pay-button-background, #1d4ed8);
        border-radius: var(--pay-button-radius, .375em);
        padding: .6em 1.2em;
      }

      button:focus-visible {
        outline-offset: 2px;
      }

      :disabled {
        opacity: .6;
      }

      [part=status] {
        margin-top: .25em;
        min-height: 1lh;
      }
    `,
  ]

  /**
   * Where to POST. Default: the fallback form's `action`. One of the two is needed.
   * @attr action
   */
  declare action?: string

  /**
   * Sent as `orderId`, over the form's field of that name if there is one.
   * @attr order-id
   */
  declare orderId?: string

  /** Disables the button (the native `disabled`). */
  declare disabled: boolean

  /** @internal */
  protected _state: PayButtonState = 'idle'

  constructor() {
    super()
    this.disabled = false
  }

  /**
   * What the button is doing: `idle`, `working`, `redirecting` or `error` (the button is usable again).
   * @readonly
   */
  get state(): PayButtonState {
    return this._state
  }

  override connectedCallback() {
    super.connectedCallback()
    addEventListener('pageshow', this.#pageshow)
  }

  override disconnectedCallback() {
    super.disconnectedCallback()
    removeEventListener('pageshow', this.#pageshow)
    this._set('idle')
  }

  override render() {
    const state = this._state
    const busy = this._busy()
    // The fallback form's submit button says what the button should say.
    const submit = this.querySelector<HTMLButtonElement>('form [type=submit],form button:not([type])')
    const label = submit?.textContent?.trim() || submit?.value || 'Pay'
    // Line breaks only where whitespace does not show: the bundle's template minifier removes them
    // (@till/template-minifier). The spinner, the label and the status wording are inline: each run on one line.
    return html`
      <button
        part="button"
        ?disabled=${this.disabled}
        aria-disabled=${busy}
        aria-busy=${busy}
        @click=${this.#click}
      >
        ${busy ? spinner : ''}<span part="label"><slot name="label">${label}</slot></span>
      </button>
      <div part="status" role="status">
        ${state === 'idle' ? '' : html`<slot name=${state}>${TEXT[state]}</slot>`}${this._message}
      </div>
    `
  }

  // Back from the checkout page through the back/forward cache: the page was frozen mid-redirect.
  #pageshow = (event: PageTransitionEvent) => {
    if (event.persisted) this._set('idle')
  }

  #click() {
    if (this._busy()) return
    const form = this.querySelector('form')
    const action = this.action || form?.action
    const body: Record<string, string> = {}
    if (form) for (const [name, value] of new FormData(form)) if (typeof value === 'string') body[name] = value
    if (this.orderId) body.orderId = this.orderId
    if (!action) this._fail('not_configured')
    else if (this._fire('pay-start', { action, body } satisfies PayStartDetail, true)) {
      this._set('working')
      this._ask(action, JSON.stringify(body))
    }
  }

  // Only an absolute http(s) URL: a `javascript:` or `data:` one from a confused backend is refused.
  /** @internal */
  protected _valid(body: unknown): body is CreatePaymentReply {
    const { paymentId, gatewayUrl } = fields(body)
    return typeof paymentId === 'string' && typeof gatewayUrl === 'string' && /^https?:\/\//i.test(gatewayUrl)
  }

  /** @internal */
  protected _done(reply: CreatePaymentReply) {
    if (this._fire('pay-created', reply, true)) {
      this._set('redirecting')
      location.assign(reply.gatewayUrl)
    } else this._set('idle')
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-button': PayButton
  }
  interface GlobalEventHandlersEventMap {
    'pay-start': PayStartEvent
    'pay-created': PayCreatedEvent
    'pay-error': PayErrorEvent
  }
}
