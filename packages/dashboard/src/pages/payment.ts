import { html, nothing } from 'lit'
import { api, type PaymentPage, type TimelineEntry, type User } from '../api.ts'
import { money, STATUS_WORDS, units, when } from '../format.ts'
import { Page } from './page.ts'

const DECIMALS: Record<string, number> = { JPY: 0, KWD: 3, BHD: 3 }

const text = (value: unknown) => String(value ?? '')

const SEEN_BY: Record<string, string> = {
  page: 'posted by the checkout page',
  watcher: 'found on chain by the watcher',
}

/** One line of the timeline, in words. */
function describe(entry: TimelineEntry): string {
  switch (entry.kind) {
    case 'status':
      return entry.from === null
        ? 'Created'
        : `${STATUS_WORDS[text(entry.from)] ?? text(entry.from)} → ${STATUS_WORDS[text(entry.to)] ?? text(entry.to)} (${text(entry.reason).replaceAll('_', ' ')})`
    case 'quoted':
      return `Option quoted: ${text(entry.tokenAmount)} smallest units of ${text(entry.token)} at a rate of ${text(entry.rate)}`
    case 'transaction':
      return `Transaction seen${entry.seenBy ? `, ${SEEN_BY[text(entry.seenBy)] ?? text(entry.seenBy)}` : ''}${entry.matchedBy ? ` (matched by its ${text(entry.matchedBy)})` : ''}`
    case 'confirmations':
      return `${text(entry.confirmations)} of ${text(entry.required)} confirmations (block ${text(entry.blockNumber)})`
    case 'webhook_attempt':
      return `Webhook ${text(entry.eventType)} to ${text(entry.endpointUrl)}: ${entry.statusCode === null ? text(entry.error) : `HTTP ${text(entry.statusCode)}`} in ${text(entry.latencyMs)} ms`
    case 'refund':
      return `Refund ${text(entry.refundId)}: ${text(entry.status)}${entry.transactionHash ? `, transaction ${text(entry.transactionHash)}` : ''}`
    default:
      return entry.kind
  }
}

/** A payment's page: its amount and status, its timeline, and what an admin or owner may do with it. */
export class TillPayment extends Page {
  static override properties = {
    paymentId: {},
    user: { attribute: false },
    payment: { state: true },
    problem: { state: true },
    links: { state: true },
  }
  declare paymentId: string
  declare user: User | null
  declare payment: PaymentPage | null
  declare problem: string
  declare links: { claimUrl: string | null; payUrl: string | null } | null

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.paymentId = ''
    this.user = null
    this.payment = null
    this.problem = ''
    this.links = null
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('paymentId')) void this.#load()
  }

  async #load(): Promise<void> {
    try {
      this.payment = await api.payment(this.paymentId)
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  async #act(action: () => Promise<unknown>): Promise<void> {
    try {
      await action()
      this.problem = ''
      await this.#load()
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  #refund(event: SubmitEvent): void {
    event.preventDefault()
    const form = new FormData(event.target as HTMLFormElement)
    const amount = String(form.get('amount') ?? '').trim()
    const destination = String(form.get('destination') ?? '').trim()
    void this.#act(async () => {
      this.links = await api.refund(this.paymentId, { ...(amount ? { amount } : {}), ...(destination ? { destination } : {}) })
    })
  }

  override render() {
    const payment = this.payment
    return html`
      <h1 tabindex="-1">Payment ${this.paymentId}</h1>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      ${payment ? this.#details(payment) : this.problem ? nothing : html`<p role="status">Loading…</p>`}
    `
  }

  #details(payment: PaymentPage) {
    const currency = payment.amount.currency
    return html`
      <dl class="facts">
        <div><dt>Amount</dt><dd>${money(payment.amount.value, currency, DECIMALS[currency] ?? 2)}</dd></div>
        <div><dt>Status</dt><dd class=${`status status-${payment.status}`}>${STATUS_WORDS[payment.status] ?? payment.status}</dd></div>
        <div><dt>Reference</dt><dd>${payment.referenceId}</dd></div>
        <div><dt>Created</dt><dd><time datetime=${payment.createdAt}>${when(payment.createdAt)}</time></dd></div>
        ${payment.isFinal ? nothing : html`<div><dt>Expires</dt><dd><time datetime=${payment.expiresAt}>${when(payment.expiresAt)}</time></dd></div>`}
      </dl>
      ${payment.paid ? this.#paid(payment.paid) : nothing}
      ${payment.actions.cancel ? html`<p><button type="button" @click=${() => this.#act(() => api.cancel(payment.paymentId))}>Cancel payment</button></p>` : nothing}
      ${
        payment.actions.refund
          ? html`<form class="refund" @submit=${this.#refund}>
            <h2>Refund</h2>
            <p><label for="amount">Amount in minor units (empty: all that is left)</label><input id="amount" name="amount" inputmode="numeric" pattern="[1-9][0-9]*"></p>
            <p><label for="destination">Destination (optional, CAIP-10; empty: the buyer claims it)</label><input id="destination" name="destination" placeholder="eip155:8453:0x…" spellcheck="false"></p>
            <p><button type="submit">Refund</button></p>
          </form>`
          : nothing
      }
      ${
        this.links
          ? html`<p role="status">Refund made. Send the buyer its claim link${this.links.claimUrl ? html`: <a href=${this.links.claimUrl}>claim link</a>` : nothing}; pay it at
            ${this.links.payUrl ? html`<a href=${this.links.payUrl}>the pay link</a>` : nothing}.</p>`
          : nothing
      }
      <h2>Timeline</h2>
      <ol class="timeline">
        ${payment.timeline.map(
          (entry) => html`<li>
            <time datetime=${entry.at}>${when(entry.at)}</time> ${describe(entry)}
            ${entry.kind === 'transaction' ? this.#transaction(entry) : nothing}
            ${
              entry.kind === 'webhook_attempt' && payment.actions.redeliver
                ? html`<button type="button" @click=${() => this.#act(() => api.redeliver(payment.paymentId, text(entry.deliveryId)))}>Redeliver</button>`
                : nothing
            }
          </li>`,
        )}
      </ol>
    `
  }

  /** The option the buyer paid with: token, network, the exact amount and rate, and the transaction. */
  #paid(paid: NonNullable<PaymentPage['paid']>) {
    return html`<h2>Paid with</h2>
      <dl class="facts">
        ${paid.token ? html`<div><dt>Token amount</dt><dd>${units(paid.token.amount, paid.token.decimals)} ${paid.token.symbol}</dd></div>` : nothing}
        <div><dt>Network</dt><dd>${paid.network}</dd></div>
        ${paid.rate ? html`<div><dt>Rate</dt><dd>${paid.rate}</dd></div>` : nothing}
        <div><dt>Buyer</dt><dd><code>${paid.buyer}</code>${paid.wallet ? ` (${paid.wallet})` : ''}</dd></div>
        ${
          paid.transactionHash
            ? html`<div><dt>Transaction</dt><dd>${
                paid.explorerUrl
                  ? html`<a href=${paid.explorerUrl} rel="noreferrer" target="_blank"><code>${paid.transactionHash}</code></a>`
                  : html`<code>${paid.transactionHash}</code>`
              }</dd></div>`
            : nothing
        }
      </dl>`
  }

  #transaction(entry: TimelineEntry) {
    const hash = text(entry.hash)
    return typeof entry.explorerUrl === 'string'
      ? html`<a href=${entry.explorerUrl} rel="noreferrer" target="_blank" aria-label=${`Transaction ${hash} at the explorer`}><code>${hash.slice(0, 10)}…</code></a>`
      : html`<code>${hash}</code>`
  }
}
