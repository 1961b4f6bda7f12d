import { html, nothing } from 'lit'
import { api, type PaymentList } from '../api.ts'
import type { DayVolume } from '../volume-chart.ts'
import { money, STATUS_WORDS, when } from '../format.ts'
import { Page } from './page.ts'

/** The listing's revenue is a number in the currency's standard unit (spec 2.2), as the spec gives it. */
const revenue = (amount: number, currency: string) => new Intl.NumberFormat('en-IE', { style: 'currency', currency }).format(amount)

const DAY_MS = 24 * 60 * 60 * 1000
const dayAfter = (day: string) => `${new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10)}T00:00:00Z`
const dayBefore = (instant: string | null) => (instant ? new Date(Date.parse(instant) - DAY_MS).toISOString().slice(0, 10) : '')

const TABS: [string, string | null][] = [
  ['All', null],
  ['Requires action', 'requires_action'],
  ['Processing', 'processing'],
  ['Succeeded', 'succeeded'],
  ['Failed', 'failed'],
  ['Expired', 'expired'],
  ['Cancelled', 'cancelled'],
]

/**
 * The Payments page: tiles from the listing's exact stats, status tabs and a reference search. The filter
 * lives in the address, so a link shows the same list; "Next" and "Previous" follow the listing's keyset cursors.
 */
export class TillPayments extends Page {
  static override properties = {
    query: {},
    list: { state: true },
    problem: { state: true },
    days: { state: true },
    merchants: { state: true },
  }
  declare days: DayVolume[] | null
  declare merchants: { id: string; name: string }[]
  declare query: string
  declare list: PaymentList | null
  declare problem: string

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.query = ''
    this.list = null
    this.problem = ''
    this.days = null
    this.merchants = []
  }

  #live: EventSource | undefined
  #reading = false
  #readAgain = false

  override connectedCallback(): void {
    super.connectedCallback()
    // Live (ADR 33): the server names payments made or changed, and the page reads its list again; the
    // stream is never the data. EventSource reconnects by itself, checking the session each time.
    this.#live = new EventSource('/dashboard/api/payments/live')
    const again = () => void this.#load()
    this.#live.addEventListener('payment', again)
    this.#live.addEventListener('missed', again)
    // A filter by merchant is offered to whoever sees more than one.
    api.merchants().then(
      (merchants) => {
        this.merchants = merchants.data
      },
      () => {},
    )
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('query')) void this.#load()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.#live?.close()
  }

  /** One read at a time: changes heard during a read make one more read after it, however many they were. */
  async #load(): Promise<void> {
    if (this.#reading) {
      this.#readAgain = true
      return
    }
    this.#reading = true
    try {
      do {
        this.#readAgain = false
        await this.#read()
      } while (this.#readAgain)
    } finally {
      this.#reading = false
    }
  }

  async #read(): Promise<void> {
    try {
      this.list = await api.payments(this.query)
      this.problem = ''
    } catch (error) {
      this.problem = this.problemOf(error)
      return
    }
    // The chart's code comes with its first data, off the page's first load.
    const [days] = await Promise.all([api.daily(this.#filterQuery()), import('../volume-chart-define.ts')]).catch(() => [null])
    this.days = days?.data ?? null
  }

  #with(changes: Record<string, string | null>): string {
    const params = new URLSearchParams(this.query)
    params.delete('cursor')
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '') params.delete(name)
      else params.set(name, value)
    }
    const query = params.toString()
    return `/dashboard/${query ? `?${query}` : ''}`
  }

  /** Dates are whole UTC days: from the start of the first to the start of the day after the last. */
  #filter(event: SubmitEvent): void {
    event.preventDefault()
    const form = new FormData(event.target as HTMLFormElement)
    const text = (name: string) => String(form.get(name) ?? '').trim()
    this.navigate(
      this.#with({
        startTs: text('from') ? `${text('from')}T00:00:00Z` : null,
        endTs: text('to') ? dayAfter(text('to')) : null,
        token_symbol: text('token') || null,
        network: text('network') || null,
        merchantId: text('merchant') || null,
      }),
    )
  }

  /** The filter alone, for the export: the whole set, not the page the cursor is on. */
  #filterQuery(): string {
    const params = new URLSearchParams(this.query)
    params.delete('cursor')
    params.delete('limit')
    const query = params.toString()
    return query ? `?${query}` : ''
  }

  #search(event: SubmitEvent): void {
    event.preventDefault()
    const text = String(new FormData(event.target as HTMLFormElement).get('q') ?? '').trim()
    // Through the address, as a link would: the filter lives there, and the dashboard hands it back down.
    this.navigate(this.#with({ q: text }))
  }

  override render() {
    const list = this.list
    const params = new URLSearchParams(this.query)
    const status = params.get('status')
    return html`
      <h1 tabindex="-1">Payments</h1>
      ${
        list
          ? html`<ul class="tiles" aria-label="Totals">
            <li><span>Revenue</span> <strong>${list.stats.totalRevenue.map((r) => revenue(r.amount, r.currency)).join(', ') || '0'}</strong></li>
            <li><span>Transactions</span> <strong>${list.stats.totalTransactions}</strong></li>
            <li><span>Customers</span> <strong>${list.stats.totalCustomers}</strong></li>
          </ul>`
          : nothing
      }
      ${this.days ? html`<till-volume-chart .days=${this.days}></till-volume-chart>` : nothing}
      <nav class="tabs" aria-label="Status">
        ${TABS.map(([label, value]) => html`<a href=${this.#with({ status: value })} aria-current=${status === value ? 'page' : 'false'}>${label}</a>`)}
      </nav>
      <p><a href=${`/dashboard/api/payments/export.csv${this.#filterQuery()}`} download>Export CSV</a> (every payment of this filter, not just this page)</p>
      <form role="search" @submit=${this.#search}>
        <label for="q">Search</label>
        <input id="q" name="q" type="search" .value=${params.get('q') ?? ''} aria-describedby="q-hint">
        <span class="hint" id="q-hint">A payment id, part of a reference, a transaction hash or a buyer's address</span>
        <button type="submit">Search</button>
      </form>
      <form class="filters" aria-label="Filters" @submit=${this.#filter}>
        <p><label for="from">From</label><input id="from" name="from" type="date" .value=${(params.get('startTs') ?? '').slice(0, 10)}></p>
        <p><label for="to">To (included)</label><input id="to" name="to" type="date" .value=${dayBefore(params.get('endTs'))}></p>
        <p><label for="token">Token</label><input id="token" name="token" .value=${params.get('token_symbol') ?? ''} placeholder="USDC"></p>
        <p><label for="network">Network</label><input id="network" name="network" .value=${params.get('network') ?? ''} placeholder="eip155:8453"></p>
        ${
          this.merchants.length > 1
            ? html`<p><label for="merchant">Merchant</label><select id="merchant" name="merchant">
                <option value="" ?selected=${!params.get('merchantId')}>All merchants</option>
                ${this.merchants.map((m) => html`<option value=${m.id} ?selected=${params.get('merchantId') === m.id}>${m.name}</option>`)}
              </select></p>`
            : nothing
        }
        <p><button type="submit">Filter</button></p>
      </form>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      ${list ? this.#table(list) : html`<p role="status">Loading payments…</p>`}
    `
  }

  #table(list: PaymentList) {
    if (list.data.length === 0) return html`<p>No payments match.</p>`
    // On a narrow screen the table scrolls within its own region (reachable by keyboard), not the page.
    return html`<div class="scrolls" role="region" aria-label="Payments, newest first" tabindex="0"><table>
        <caption class="visually-hidden">Payments, newest first</caption>
        <thead><tr><th scope="col">Payment</th><th scope="col">Reference</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
        <tbody>
          ${list.data.map(
            (payment) => html`<tr>
              <th scope="row"><a href=${`/dashboard/payments/${payment.paymentId}`}><code>${payment.paymentId}</code></a></th>
              <td>${payment.referenceId}</td>
              <td class="amount">${payment.fiatAmount ? money(payment.fiatAmount.value, payment.fiatAmount.unit.replace('iso4217/', ''), payment.fiatAmount.display.decimals) : ''}</td>
              <td><span class=${`status status-${payment.status}`}>${STATUS_WORDS[payment.status] ?? payment.status}</span></td>
              <td>${when(payment.createdAt)}</td>
            </tr>`,
          )}
        </tbody>
      </table></div>
      ${
        list.previousCursor || list.nextCursor
          ? html`<nav class="pages" aria-label="Pages">
              ${list.previousCursor ? html`<a href=${this.#at(list.previousCursor)} rel="prev">Previous</a>` : nothing}
              ${list.nextCursor ? html`<a href=${this.#at(list.nextCursor)} rel="next">Next</a>` : nothing}
            </nav>`
          : nothing
      }`
  }

  /** The same filter at another page: the cursor is the listing's, signed for exactly this filter. */
  #at(cursor: string): string {
    const params = new URLSearchParams(this.query)
    params.set('cursor', cursor)
    return `/dashboard/?${params}`
  }
}
