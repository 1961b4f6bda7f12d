import type { CheckoutWallet, PaymentOption } from '@till/contract'
import { html, nothing, type TemplateResult } from 'lit-html'
import { formatRemaining, formatToken, minorToDecimal, shortAccount } from './format.ts'
import {
  isFinalView,
  paysByRequest,
  remainingMs,
  selectedOption,
  viewKey,
  type FinalView,
  type LaterNotice,
  type Model,
  type Step,
  type ViewKey,
} from './model.ts'
import type { Strings } from './strings.ts'
import { type AnnouncedWallet, DEV_WALLET_UUID } from './wallets/discovery.ts'

export type Actions = {
  connect(wallet: CheckoutWallet): void
  connectBrowser(wallet: AnnouncedWallet): void
  select(optionId: string): void
  pay(): void
  changeWallet(): void
  retryOptions(): void
  expireNow(): void
  /** Shows the chosen option's payment request, to pay from a phone wallet. */
  payByPhone(): void
}

/** Every screen's heading takes focus when the screen changes, so keyboard and screen reader users follow. */
const heading = (text: string) => html`<h2 class="heading" tabindex="-1" data-focus>${text}</h2>`

export function view(model: Model, t: Strings, actions: Actions): TemplateResult {
  const key = viewKey(model)
  const body = isFinalView(key)
    ? finalView(model, t, key)
    : key === 'processing'
      ? processingView(model, t)
      : pendingView(model, t, actions)
  return html`${noticeView(model, t)}${body}`
}

function noticeView({ notice, outcome }: Model, t: Strings) {
  if (!notice) return nothing
  const { kind } = notice
  const text =
    kind === 'wallet'
      ? notice.text
      : kind in t.errors
        ? t.errors[kind as keyof Strings['errors']]
        : (outcome?.notices[kind as LaterNotice] ?? t.errors.unknown)
  return html`<p class="notice" role="alert">${text}</p>`
}

/** What the live region says when the screen changes: above all, when the buyer has to act in their wallet. */
export function announcement(model: Model, key: ViewKey, t: Strings): string {
  const { step, status } = model
  if (isFinalView(key)) {
    const merchant = model.session.merchant.name
    const returning = status.redirect ? ` ${t.returningIn(merchant, Math.ceil(status.redirect.countdownMs / 1000))}` : ''
    return `${t.finalHeading[key]}.${returning}`
  }
  if (key === 'processing') return t.processingHeading
  // Each step where the wallet asks something says so: "Check your wallet", "Confirm in your wallet".
  if (step.name === 'connecting') return t.connectingHeading
  if (step.name === 'signing') return t.signingHeading
  return step.name === 'wallet' ? step.announce : ''
}

function pendingView(model: Model, t: Strings, actions: Actions) {
  const remaining = remainingMs(model)
  const step = model.step
  return html`
    <p class="expiry" role="timer" aria-atomic="true">
      ${remaining > 0 ? t.expiresIn(formatRemaining(remaining)) : t.expiring}
    </p>
    ${
      step.name === 'connect'
        ? connectView(model, t, actions)
        : step.name === 'connecting'
          ? connectingView(step, t, actions)
          : step.name === 'choose'
            ? chooseView(step, t, actions)
            : step.name === 'signing'
              ? signingView(step, t)
              : step.view
    }
    ${
      model.session.sandbox && (step.name === 'connect' || step.name === 'choose')
        ? html`<div class="sandbox-tools">
          <button type="button" class="link-button" aria-describedby="expire-hint" @click=${actions.expireNow}>
            ${t.expireNow}
          </button>
          <p id="expire-hint" class="hint">${t.expireNowHint}</p>
        </div>`
        : nothing
    }
  `
}

function connectView(model: Model, t: Strings, actions: Actions) {
  const { wallets, sandbox, localChain } = model.session
  if (wallets.length === 0) return html`${heading(t.connectHeading)}<p>${t.noWallets}</p>`
  // The session's `browser` entry stands for every wallet this browser announced, each its own button; a
  // local chain's dev wallet is announced among them (main.ts), so its own entry draws nothing more.
  const buttons = wallets.flatMap((wallet) =>
    wallet.devAccount
      ? []
      : wallet.id === 'browser'
        ? model.browserWallets.map((found, index) =>
            walletButton(
              `browser-wallet-${index}`,
              found.name,
              found.icon,
              found.uuid === DEV_WALLET_UUID ? t.devWalletOutcome : t.walletOutcome.browser,
              () => actions.connectBrowser(found),
            ),
          )
        : [walletButton(`wallet-${wallet.id}`, wallet.name, null, t.walletOutcome[wallet.id], () => actions.connect(wallet))],
  )
  const noBrowserWallet = model.browserWallets.length === 0 && wallets.some((wallet) => wallet.id === 'browser')
  return html`
    ${heading(t.connectHeading)}
    ${
      buttons.length === 0
        ? nothing
        : html`<p class="intro">${t.connectIntro}</p>
          ${sandbox && !localChain ? html`<p class="hint">${t.sandboxNote}</p>` : nothing}
          <ul class="wallets" role="list">${buttons}</ul>`
    }
    ${noBrowserWallet ? html`<p>${t.noBrowserWallet}</p>` : nothing}
  `
}

/** A wallet's name labels its button, so its icon is decoration; what picking it does describes it. */
function walletButton(id: string, name: string, icon: string | null, outcome: string, connect: () => void) {
  return html`<li>
    <button type="button" class="wallet" aria-describedby=${id} @click=${connect}>
      ${icon ? html`<img class="wallet-icon" src=${icon} alt="" width="32" height="32" />` : nothing}
      <span class="wallet-name">${name}</span>
      <span class="wallet-outcome" id=${id}>${outcome}</span>
    </button>
  </li>`
}

function connectingView(step: Extract<Step, { name: 'connecting' }>, t: Strings, actions: Actions) {
  return html`
    ${heading(t.connectingHeading)}
    <p>${step.signsForYou ? t.devWalletOutcome : t.connectingBody(step.wallet.name)}</p>
    ${spinner}
    <button type="button" class="link-button" @click=${actions.changeWallet}>${t.changeWallet}</button>
  `
}

function chooseView(step: Extract<Step, { name: 'choose' }>, t: Strings, actions: Actions) {
  const load = step.options
  const selected = selectedOption(step)
  const byPhone = paysByRequest(step.wallet)
  return html`
    ${heading(t.chooseHeading)}
    ${byPhone ? nothing : html`<p class="connected">${t.connectedAs(step.wallet.name, shortAccount(step.address))}</p>`}
    ${
      load.state === 'loading'
        ? html`<p class="loading" role="status">${t.optionsLoading}</p>`
        : load.state === 'error'
          ? html`<button type="button" class="secondary" @click=${actions.retryOptions}>${t.retry}</button>`
          : load.options.length === 0
            ? html`<p>${t.noOptions}</p>`
            : html`<fieldset class="options">
            <legend>${t.optionsLegend}</legend>
            ${load.options.map((option) => optionView(option, option.id === load.selected, t, actions))}
          </fieldset>`
    }
    ${
      selected
        ? html`<button type="button" class="primary" @click=${byPhone ? actions.payByPhone : actions.pay}>
          ${byPhone ? t.phoneButton : t.payButton(formatToken(selected.tokenAmount, t.locale))}
        </button>`
        : nothing
    }
    ${
      // A browser wallet's buyer may pay from a phone instead (the sandbox's phone wallet pays only so, above).
      selected?.paymentRequest && step.wallet.id === 'browser'
        ? html`<button type="button" class="secondary" @click=${actions.payByPhone}>${t.phoneButton}</button>`
        : nothing
    }
    <button type="button" class="link-button" @click=${actions.changeWallet}>${t.changeWallet}</button>
  `
}

function optionView(option: PaymentOption, checked: boolean, t: Strings, actions: Actions) {
  return html`<label class="option">
    <input type="radio" name="option" .value=${option.id} .checked=${checked} @change=${() => actions.select(option.id)} />
    <span class="option-amount">${formatToken(option.tokenAmount, t.locale)}</span>
    <span class="option-network">${t.onNetwork(option.network.name)}</span>
    ${option.rate ? html`<span class="option-rate">${t.rate(option.rate)}</span>` : nothing}
  </label>`
}

const spinner = html`<div class="spinner" aria-hidden="true"></div>`

const optionSummary = (option: PaymentOption, t: Strings) =>
  html`<p class="option-summary">${formatToken(option.tokenAmount, t.locale)} ${t.onNetwork(option.network.name)}</p>`

const transactionDetail = (hash: string, t: Strings) =>
  html`<div><dt>${t.transaction}</dt><dd><code title=${hash}>${shortAccount(hash)}</code></dd></div>`

function signingView(step: Extract<Step, { name: 'signing' }>, t: Strings) {
  return html`${heading(t.signingHeading)}<p>${t.signingBody}</p>${optionSummary(step.option, t)}${spinner}`
}

/**
 * What the lazy chunks draw their screens with, lent to them when they load: importing this module instead
 * would split it, lit-html with it, into a shared file that the page's script has to load up front.
 */
export const viewKit = { html, nothing, heading, spinner, optionSummary, transactionDetail, formatToken, minorToDecimal }
export type ViewKit = typeof viewKit

// After the payment left pending, each screen is drawn at once with its heading (what the live region
// says), and the rest comes with the outcome chunk (outcome.ts), loaded by then as a rule.

function processingView(model: Model, t: Strings) {
  return html`
    ${heading(t.processingHeading)}
    ${spinner}
    ${model.outcome?.processing(model) ?? nothing}
  `
}

function finalView(model: Model, t: Strings, status: FinalView) {
  return html`
    <div class="final final-${status}">
      <div class="final-icon" aria-hidden="true"></div>
      ${heading(t.finalHeading[status])}
      ${model.outcome?.final(model, status) ?? nothing}
    </div>
  `
}
