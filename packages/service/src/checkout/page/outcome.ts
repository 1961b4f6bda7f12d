import type { CheckoutPaid, FinalStatus } from '@till/contract'
import { amountLabelsFor } from './amount-labels.ts'
import type { FinalView, LaterNotice, Model, OutcomeScreens } from './model.ts'
import type { Strings } from './strings.ts'
import type { ViewKit } from './view.ts'

// The outcome chunk's entry: what the processing and final screens show below their headings, and the
// words of the notices a failed step leaves once a wallet is picked. The page loads it as soon as the buyer
// picks a wallet or acts, or when the payment moves on by itself, so it is rarely waited for; until it is
// there, those screens show their headings (view.ts). Like the wallet chunk, it imports only types from the
// page's modules and draws with the kit the page lends it.

/**
 * The chunk's words. The headings stay in strings.ts: the live region and the native app's bridge say them
 * the moment the status arrives, chunk or not. A translation adds an object here as it does in strings.ts.
 */
export const outcomeWords = {
  en: {
    processingBody: 'Your transaction was sent. Waiting for the network to confirm it; you can keep this page open.',
    payingWith: 'Paying with',
    paidWith: 'Paid with',
    finalBody: {
      succeeded: 'Thank you. Your payment has been received.',
      failed: 'The payment did not go through and nothing was charged.',
      expired: 'The time to pay ran out. Go back to the shop to start a new payment.',
      cancelled: 'This payment was cancelled by the shop. Nothing was charged.',
    } satisfies Record<FinalStatus, string>,
    genericNext: 'You can close this page now.',
    returningNow: (merchant: string) => `Returning to ${merchant}…`,
    redirectProgress: 'Time until you are returned to the shop',
    returnNow: (merchant: string) => `Return to ${merchant} now`,

    notices: {
      optionsFailed: 'The payment options could not be loaded.',
      rateLimited: 'Too many attempts. Wait a moment and try again.',
      conflict: 'This payment has changed in the meantime; showing its current state.',
    } satisfies Record<LaterNotice, string>,
  },
}

export type OutcomeWords = (typeof outcomeWords)['en']

export function outcomeScreens(kit: ViewKit, t: Strings): OutcomeScreens {
  const { html, nothing, formatToken, transactionDetail } = kit
  const byLocale: Record<string, OutcomeWords> = outcomeWords
  const words = byLocale[t.locale] ?? outcomeWords.en

  // "Paying with" while the network confirms, "Paid with" once it has; a payment that failed or expired was
  // not paid with anything.
  const paidDetails = (paid: CheckoutPaid | null, label: string) =>
    paid?.tokenAmount
      ? html`<dl class="details">
          <div><dt>${label}</dt><dd>${formatToken(paid.tokenAmount, t.locale)} ${t.onNetwork(paid.network.name)}</dd></div>
          ${paid.transactionHash ? transactionDetail(paid.transactionHash, t) : nothing}
        </dl>`
      : nothing

  return {
    notices: words.notices,
    amountLabel: amountLabelsFor(t.locale),

    processing: (model: Model) => html`
      <p>${words.processingBody}</p>
      ${paidDetails(model.status.paid, words.payingWith)}
    `,

    final(model: Model, status: FinalView) {
      const redirect = model.status.redirect
      const merchant = model.session.merchant.name
      const left = model.redirectAt === null ? null : Math.max(0, model.redirectAt - model.now)
      return html`
        <p>${words.finalBody[status]}</p>
        ${status === 'succeeded' ? paidDetails(model.status.paid, words.paidWith) : nothing}
        ${
          redirect && left !== null
            ? html`<div class="countdown">
              <p>${left > 0 ? t.returningIn(merchant, Math.ceil(left / 1000)) : words.returningNow(merchant)}</p>
              <progress max=${redirect.countdownMs} .value=${redirect.countdownMs - left} aria-label=${words.redirectProgress}></progress>
              <a class="return-link" href=${redirect.url}>${words.returnNow(merchant)}</a>
            </div>`
            : html`<p class="hint">${words.genericNext}</p>`
        }
      `
    },
  }
}
