import { html, nothing } from 'lit'
import { api, type PaymentPage, type TimelineEntry, type User } from '../api.ts'
import { money, STATUS_WORDS, when } from '../format.ts'
import { Page } from './page.ts'

const DECIMALS: Record<string, number> = { JPY: 0, KWD: 3, BHD: 3 }

/** One line of the timeline, in words. */
function describe(entry: TimelineEntry): string {
  switch (entry.kind) {
    case 'status':
      return entry.from === null ? 'Created' : `${String(entry.from)} → ${String(entry.to)} (${String(entry.reason)})`
    case 'quoted':
      return `Option quoted: ${String(entry.tokenAmount)} of ${String(entry.token)} at ${String(entry.rate)}`
    case 'transaction':
      return `Transaction seen: ${String(entry.hash)}${entry.matchedBy ? ` (matched by ${String(entry.matchedBy)})` : ''}`
    case 'webhook_attempt':
      return `Webhook ${String(entry.eventType)} to ${String(entry.endpointUrl)}: ${entry.statusCode ?? String(entry.error)} in ${String(entry.latencyMs)} ms`
    case 'refund':
      return `Refund ${String(entry.refundId)}: ${String(entry.status)}`
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
    const amount = String(new FormData(event.target as HTMLFormElement).get('amount') ?? '').trim()
    void this.#act(async () => {
      this.links = await api.refund(this.paymentId, amount ? { amount } : {})
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
      </dl>
      ${payment.actions.cancel ? html`<p><button type="button" @click=${() => this.#act(() => api.cancel(payment.paymentId))}>Cancel payment</button></p>` : nothing}
      ${
        payment.actions.refund
          ? html`<form class="refund" @submit=${this.#refund}>
            <h2>Refund</h2>
            <p><label for="amount">Amount in minor units (empty: all that is left)</label><input id="amount" name="amount" inputmode="numeric" pattern="[1-9][0-9]*"></p>
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
        ${payment.timeline.map((entry) => html`<li><time datetime=${entry.at}>${when(entry.at)}</time> ${describe(entry)}</li>`)}
      </ol>
    `
  }
}
