import type { PaymentOption } from '@till/contract'
import type { ChooseStep, Step } from '../model.ts'
import type { BrowserPathHost } from './browser-path.ts'
import { phoneWordsFor } from './phone-words.ts'
import { qrCode } from './qr.ts'

// The phone-wallet chunk's entry: loaded only once the buyer asks to pay from a phone wallet, as it carries
// the QR code encoder. It shows the option's payment request (EIP-681) to scan, to open, or to copy by hand,
// and moves nothing: the page follows the payment's status as it always does, and shows the outcome when
// the transfer is seen. Like the other chunks, it imports only types from the page's modules.

/** What the page lends the phone screen: the browser wallet's host, less the gateway and the clock. */
export type PhoneHost = Pick<BrowserPathHost, 'kit' | 't' | 'model' | 'show'>

/** The parts of a payment request as Till writes it (the contract's `PaymentOption.paymentRequest`). */
const REQUEST = /^ethereum:0x[0-9a-fA-F]{40}@\d+\/transfer\?address=(0x[0-9a-fA-F]{40})&uint256=(\d+)$/

/**
 * The screen's looks, which only it uses: they come with this chunk, adopted by the document, rather than in
 * the page's stylesheet, which every buyer loads. A constructed stylesheet is the script's, not inline
 * markup, so the page's CSP (style-src 'self') allows it. Without one (Safari before 16.4, or no DOM) the
 * screen is plainer, not broken.
 */
const LOOKS = `.qr{display:block;max-width:100%;height:auto;margin:1rem auto}
.phone-details{display:grid;grid-template-columns:auto 1fr;gap:.75rem 1rem;align-items:baseline}
.phone-details dt{color:var(--till-muted)}
.phone-details dd{margin:0;display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem;min-width:0}
.phone-details code{overflow-wrap:anywhere;min-width:0}
.phone-details .hint{flex-basis:100%;margin:0}`

let styled = false
function adoptLooks() {
  if (styled || typeof CSSStyleSheet !== 'function' || typeof document === 'undefined' || !('adoptedStyleSheets' in document)) return
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(LOOKS)
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
  styled = true
}

/**
 * Shows the phone-wallet screen for the option the buyer has chosen, if they are still choosing (they may have
 * gone on while this chunk loaded) and it carries a payment request (the page offers this only then).
 */
export function showPhoneScreen(host: PhoneHost): void {
  const from = host.model().step
  const load = from.name === 'choose' ? from.options : undefined
  const option = load?.state === 'ready' ? load.options.find((candidate) => candidate.id === load.selected) : undefined
  if (from.name !== 'choose' || !option || !REQUEST.test(option.paymentRequest ?? '')) return
  adoptLooks()
  host.show(phoneScreen(host, from, option))
}

/** The phone-wallet screen for `option`, which carries a payment request; its way back shows `from`. */
export function phoneScreen(host: PhoneHost, from: ChooseStep, option: PaymentOption): Step {
  const { html, nothing, heading, optionSummary, formatToken, minorToDecimal } = host.kit
  const { t } = host
  const words = phoneWordsFor(t.locale)
  const uri = option.paymentRequest ?? ''
  const [, recipient = '', units = ''] = REQUEST.exec(uri) ?? []
  if (!recipient) throw new RangeError(`payment option ${option.id} has no payment request`)
  // What the request says, which is the option's exact amount: shown as a buyer reads it, and as wallets take it.
  const amount = { ...option.tokenAmount, value: units }
  const decimal = minorToDecimal(units, amount.display?.decimals ?? 0)
  const qr = qrCode(uri)
  // A quiet zone of four modules around the code (the -4s below), as the QR standard asks: a camera finds its edges.
  const side = qr.size + 8
  const sandbox = host.model().session.sandbox

  /** Writes `text` to the clipboard, then says whether it did in the screen's status line; focus stays put. */
  const copy = (text: string, done: string) => async () => {
    let said = words.copyFailed
    try {
      await navigator.clipboard.writeText(text)
      said = done
    } catch {}
    if (host.model().step !== shown) return
    shown = draw(said)
    host.show(shown)
  }

  const draw = (status: string): Step => ({
    name: 'wallet',
    screen: 'phone',
    announce: words.phoneHeading,
    view: html`
      ${heading(words.phoneHeading)}
      <p>${words.phoneIntro}</p>
      ${optionSummary(option, t)}
      <svg class="qr" role="img" aria-label=${words.qrLabel} viewBox="-4 -4 ${side} ${side}" width="240" height="240" shape-rendering="crispEdges">
        <rect x="-4" y="-4" width=${side} height=${side} fill="#fff"></rect>
        <path d=${qr.path} fill="#000"></path>
      </svg>
      <p><a class="return-link" href=${uri}>${words.openInApp}</a></p>
      <dl class="phone-details">
        <dt>${words.sendTo}</dt>
        <dd>
          <code>${recipient}</code>
          <button type="button" class="secondary" @click=${copy(recipient, words.addressCopied)}>${words.copyAddress}</button>
        </dd>
        <dt>${words.amount}</dt>
        <dd>
          <strong>${formatToken(amount, t.locale)}</strong>
          <button type="button" class="secondary" @click=${copy(decimal, words.amountCopied)}>${words.copyAmount}</button>
          <span class="hint">${words.smallestUnit(units)}</span>
        </dd>
      </dl>
      <p class="hint" role="status">${status}</p>
      <p class="hint">${words.uniqueAmount}</p>
      <p>${words.followed}</p>
      ${sandbox ? html`<p class="hint">${words.sandboxWarning}</p>` : nothing}
      <button type="button" class="link-button" @click=${() => host.show(from)}>${words.otherWays}</button>
    `,
  })
  let shown = draw('')
  return shown
}
