import type { PaymentOption } from '@till/contract'
import type { TemplateResult } from 'lit-html'
import type { Step, WalletScreen } from '../model.ts'
import type { Strings } from '../strings.ts'
import type { ViewKit } from '../view.ts'
import type { WalletWords } from './words.ts'

/**
 * The wallet path's own screens, after the buyer connected. They are drawn with the page's template tag
 * and pieces, lent at run time, so the chunk carries its templates and words but not lit-html.
 */
export function walletScreens(kit: ViewKit, t: Strings, words: WalletWords) {
  const { html, heading, spinner, optionSummary, transactionDetail } = kit
  // The heading is what the live region says: each screen names what the wallet, or the buyer, has to do.
  const screen = (name: WalletScreen, title: string, body: TemplateResult): Step => ({
    name: 'wallet',
    screen: name,
    announce: title,
    view: html`${heading(title)}${body}`,
  })
  const transaction = (hash: string) => html`<dl class="details">${transactionDetail(hash, t)}</dl>`

  return {
    switching: (wallet: string, option: PaymentOption) =>
      screen(
        'switching',
        words.switchingHeading,
        html`<p>${words.switchingBody(wallet, option.network.name)}</p>${optionSummary(option, t)}${spinner}`,
      ),

    /** `signsForYou`: a local chain's dev wallet, which asks the buyer nothing. */
    signing: (option: PaymentOption, signsForYou = false) =>
      screen(
        'signing',
        t.signingHeading,
        html`<p>${signsForYou ? words.signingForYou : t.signingBody}</p>${optionSummary(option, t)}${spinner}`,
      ),

    submitted: (option: PaymentOption, hash: string) =>
      screen(
        'submitted',
        words.submittedHeading,
        html`<p>${words.submittedBody}</p>${optionSummary(option, t)}${transaction(hash)}${spinner}`,
      ),

    /** The page stopped asking by itself: the buyer checks again with the same hash, or goes back. */
    stalled: (option: PaymentOption, hash: string, checkAgain: () => void, back: () => void) =>
      screen(
        'stalled',
        words.stalledHeading,
        html`<p>${words.stalledBody}</p>${optionSummary(option, t)}${transaction(hash)}
          <button type="button" class="primary" @click=${checkAgain}>${words.checkAgain}</button>
          <button type="button" class="link-button" @click=${back}>${words.backToOptions}</button>`,
      ),
  }
}

export type WalletScreens = ReturnType<typeof walletScreens>
