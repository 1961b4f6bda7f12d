import { html, nothing } from 'lit'
import { api, type MerchantView, type UnappliedTransfer, type User } from '../api.ts'
import { units, when } from '../format.ts'
import { Page } from './page.ts'

const REASONS: Record<string, string> = {
  payment_expired: 'The payment had expired',
  payment_cancelled: 'The payment was cancelled',
  payment_already_paid: 'The payment was already paid',
  amount_mismatch: 'Not the amount asked',
  no_matching_payment: 'No payment matched',
}

/**
 * "Unapplied transfers": what buyers sent a merchant that paid nothing, with why, from whom, how much, the
 * payment it matched and the transaction. "Refund" (admins and owners) opens the refund form: to the account
 * that sent it unless another is given; the form then shows the claim and pay links.
 */
export class TillUnapplied extends Page {
  static override properties = {
    user: { attribute: false },
    merchants: { state: true },
    merchantId: { state: true },
    transfers: { state: true },
    nextCursor: { state: true },
    refunding: { state: true },
    links: { state: true },
    problem: { state: true },
  }
  declare user: User | null
  declare merchants: MerchantView[]
  declare merchantId: string
  declare transfers: UnappliedTransfer[] | null
  declare nextCursor: string | null
  declare refunding: UnappliedTransfer | null
  declare links: { claimUrl: string | null; payUrl: string | null } | null
  declare problem: string

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.user = null
    this.merchants = []
    this.merchantId = ''
    this.transfers = null
    this.nextCursor = null
    this.refunding = null
    this.links = null
    this.problem = ''
  }

  override connectedCallback(): void {
    super.connectedCallback()
    api.merchants().then(
      (merchants) => {
        this.merchants = merchants.data
        void this.#show(this.user?.merchantId ?? merchants.data[0]?.id ?? '')
      },
      (error: unknown) => {
        this.problem = this.problemOf(error)
      },
    )
  }

  async #show(merchantId: string, cursor?: string): Promise<void> {
    this.merchantId = merchantId
    if (!merchantId) return
    try {
      const page = await api.unapplied(merchantId, cursor)
      this.transfers = cursor ? [...(this.transfers ?? []), ...page.data] : page.data
      this.nextCursor = page.nextCursor
      this.problem = ''
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  #openRefund(transfer: UnappliedTransfer): void {
    this.refunding = transfer
    this.links = null
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('#refund-title')?.focus())
  }

  async #refund(event: SubmitEvent, transfer: UnappliedTransfer): Promise<void> {
    event.preventDefault()
    const destination = String(new FormData(event.target as HTMLFormElement).get('destination') ?? '').trim()
    try {
      this.links = await api.refundUnapplied(this.merchantId, {
        unappliedTransferId: transfer.id,
        ...(destination ? { destination } : {}),
      })
      this.problem = ''
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  override render() {
    const acts = this.user?.role !== 'viewer'
    return html`
      <h1 tabindex="-1">Unapplied transfers</h1>
      <p>Tokens buyers sent that paid no payment: refund them to whoever sent them.</p>
      ${
        this.merchants.length > 1
          ? html`<p><label for="unapplied-merchant">Merchant</label>
              <select id="unapplied-merchant" @change=${(event: Event) => this.#show((event.target as HTMLSelectElement).value)}>
                ${this.merchants.map((m) => html`<option value=${m.id} ?selected=${m.id === this.merchantId}>${m.name}</option>`)}
              </select></p>`
          : nothing
      }
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      ${this.refunding ? this.#refundForm(this.refunding) : nothing}
      ${this.transfers === null ? html`<p role="status">Loading transfers…</p>` : this.transfers.length === 0 ? html`<p>No unapplied transfers.</p>` : this.#table(this.transfers, acts)}
      ${this.nextCursor ? html`<p><button type="button" @click=${() => this.#show(this.merchantId, this.nextCursor ?? undefined)}>Show more</button></p>` : nothing}
    `
  }

  #table(transfers: UnappliedTransfer[], acts: boolean) {
    return html`<div class="scrolls" role="region" aria-label="Unapplied transfers" tabindex="0"><table>
      <caption class="visually-hidden">Unapplied transfers, newest first</caption>
      <thead><tr><th scope="col">Recorded</th><th scope="col">Why</th><th scope="col">From</th><th scope="col">Amount</th><th scope="col">Payment</th><th scope="col">Transaction</th>${acts ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : nothing}</tr></thead>
      <tbody>
        ${transfers.map(
          (transfer) => html`<tr>
            <th scope="row">${when(transfer.recordedAt)}</th>
            <td>${REASONS[transfer.reason] ?? transfer.reason}</td>
            <td><code>${transfer.from}</code></td>
            <td class="amount">${this.#amount(transfer)}</td>
            <td>${transfer.paymentId ? html`<a href=${`/dashboard/payments/${transfer.paymentId}`}><code>${transfer.paymentId}</code></a>` : 'None'}</td>
            <td>${
              transfer.explorerUrl
                ? html`<a href=${transfer.explorerUrl} rel="noreferrer" target="_blank"><code>${transfer.transaction.hash.slice(0, 10)}…</code></a>`
                : html`<code>${transfer.transaction.hash}</code>`
            }</td>
            ${acts ? html`<td><button type="button" aria-label=${`Refund the transfer from ${transfer.from}`} @click=${() => this.#openRefund(transfer)}>Refund</button></td>` : nothing}
          </tr>`,
        )}
      </tbody>
    </table></div>`
  }

  #amount(transfer: UnappliedTransfer) {
    const display = transfer.tokenAmount.display
    return display
      ? `${units(transfer.tokenAmount.value, display.decimals)} ${display.assetSymbol}`
      : `${transfer.tokenAmount.value} (smallest units)`
  }

  #refundForm(transfer: UnappliedTransfer) {
    return html`<form class="stacked" aria-labelledby="refund-title" @submit=${(event: SubmitEvent) => this.#refund(event, transfer)}>
      <h2 id="refund-title" tabindex="-1">Refund ${this.#amount(transfer)}</h2>
      <p>An unapplied transfer is refunded whole.</p>
      <p><label for="refund-destination">Destination (CAIP-10; empty: the buyer claims it)</label>
        <input id="refund-destination" name="destination" .value=${transfer.from} spellcheck="false"></p>
      <p><button type="submit">Refund</button> <button type="button" @click=${() => {
        this.refunding = null
      }}>Close</button></p>
      ${
        this.links
          ? html`<p role="status">Refund made.${this.links.claimUrl ? html` Send the buyer its <a href=${this.links.claimUrl}>claim link</a>.` : nothing}
              ${this.links.payUrl ? html`Pay it at <a href=${this.links.payUrl}>the pay link</a>.` : nothing}</p>`
          : nothing
      }
    </form>`
  }
}
