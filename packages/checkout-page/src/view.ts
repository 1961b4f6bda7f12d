import type { CheckoutPaid, CheckoutWallet, PaymentOption } from '@till/contract'
import { html, nothing, type TemplateResult } from 'lit-html'
import { formatRemaining, formatToken, shortAccount } from './format.ts'
import { isFinalView, remainingMs, viewKey, type FinalView, type Model, type Step } from './model.ts'
import type { Strings } from './strings.ts'

export type Actions = {
  connect(wallet: CheckoutWallet): void
  select(optionId: string): void
  pay(): void
  changeWallet(): void
  retryOptions(): void
  expireNow(): void
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

function noticeView(model: Model, t: Strings) {
  if (!model.notice) return nothing
  const text = model.notice.kind === 'optionsFailed' ? t.optionsFailed : t.errors[model.notice.kind]
  return html`<p class="notice" role="alert">${text}</p>`
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
        : step.name === 'choose'
          ? chooseView(step, t, actions)
          : signingView(step, t)
    }
    ${
      model.session.sandbox && step.name !== 'signing'
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
  const { wallets, sandbox } = model.session
  return html`
    ${heading(t.connectHeading)}
    ${
      wallets.length === 0
        ? html`<p>${t.noWallets}</p>`
        : html`<p class="intro">${t.connectIntro}</p>
          ${sandbox ? html`<p class="hint">${t.sandboxNote}</p>` : nothing}
          <ul class="wallets" role="list">
            ${wallets.map(
              (wallet) => html`<li>
                <button type="button" class="wallet" aria-describedby="wallet-${wallet.id}" @click=${() => actions.connect(wallet)}>
                  <span class="wallet-name">${wallet.name}</span>
                  <span class="wallet-outcome" id="wallet-${wallet.id}">${t.walletOutcome[wallet.id]}</span>
                </button>
              </li>`,
            )}
          </ul>`
    }
  `
}

function chooseView(step: Extract<Step, { name: 'choose' }>, t: Strings, actions: Actions) {
  const load = step.options
  const selected = load.state === 'ready' ? load.options.find((option) => option.id === load.selected) : undefined
  return html`
    ${heading(t.chooseHeading)}
    <p class="connected">${t.connectedAs(step.wallet.name, shortAccount(step.address))}</p>
    ${
      load.state === 'loading'
        ? html`<p class="loading" role="status">${t.optionsLoading}</p>`
        : load.state === 'error'
          ? html`<button type="button" class="secondary" @click=${actions.retryOptions}>${t.retry}</button>`
          : html`<fieldset class="options">
            <legend>${t.optionsLegend}</legend>
            ${load.options.map((option) => optionView(option, option.id === load.selected, t, actions))}
          </fieldset>`
    }
    ${
      selected
        ? html`<button type="button" class="primary" @click=${actions.pay}>
          ${t.payButton(formatToken(selected.tokenAmount, t.locale))}
        </button>`
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
  </label>`
}

function signingView(step: Extract<Step, { name: 'signing' }>, t: Strings) {
  return html`
    ${heading(t.signingHeading)}
    <p>${t.signingBody}</p>
    <p class="option-summary">${formatToken(step.option.tokenAmount, t.locale)} ${t.onNetwork(step.option.network.name)}</p>
    <div class="spinner" aria-hidden="true"></div>
  `
}

function paidDetails(paid: CheckoutPaid | null, t: Strings) {
  if (!paid?.tokenAmount) return nothing
  return html`<dl class="details">
    <div><dt>${t.paidWith}</dt><dd>${formatToken(paid.tokenAmount, t.locale)} ${t.onNetwork(paid.network.name)}</dd></div>
    ${
      paid.transactionHash
        ? html`<div><dt>${t.transaction}</dt><dd><code title=${paid.transactionHash}>${shortAccount(paid.transactionHash)}</code></dd></div>`
        : nothing
    }
  </dl>`
}

function processingView(model: Model, t: Strings) {
  return html`
    ${heading(t.processingHeading)}
    <div class="spinner" aria-hidden="true"></div>
    <p>${t.processingBody}</p>
    ${paidDetails(model.status.paid, t)}
  `
}

function finalView(model: Model, t: Strings, status: FinalView) {
  const words = t.final[status]
  const redirect = model.status.redirect
  const merchant = model.session.merchant.name
  const left = model.redirectAt === null ? null : Math.max(0, model.redirectAt - model.now)
  return html`
    <div class="final final-${status}">
      <div class="final-icon" aria-hidden="true"></div>
      ${heading(words.heading)}
      <p>${words.body}</p>
      ${status === 'failed' ? nothing : paidDetails(model.status.paid, t)}
      ${
        redirect && left !== null
          ? html`<div class="countdown">
            <p>${left > 0 ? t.returningIn(merchant, Math.ceil(left / 1000)) : t.returningNow(merchant)}</p>
            <progress max=${redirect.countdownMs} .value=${redirect.countdownMs - left} aria-label=${t.redirectProgress}></progress>
            <a class="return-link" href=${redirect.url}>${t.returnNow(merchant)}</a>
          </div>`
          : html`<p class="hint">${t.genericNext}</p>`
      }
    </div>
  `
}
