import { html, nothing } from 'lit'
import { api, type Delivery, type Endpoint, type MerchantView, type User } from '../api.ts'
import { when } from '../format.ts'
import { Page } from './page.ts'

/**
 * "Webhooks": a merchant's endpoints with their events, status and latest delivery. Admins and owners add
 * one (its signing secret shown once), enable, disable, delete, rotate the secret (the old one signs for
 * 24 hours more) and send a signed test event. An endpoint's deliveries show each attempt (time, HTTP
 * status, latency, error and the request as it was sent), filtered by failure and event type, with
 * "Redeliver".
 */
export class TillWebhooks extends Page {
  static override properties = {
    user: { attribute: false },
    merchants: { state: true },
    merchantId: { state: true },
    endpoints: { state: true },
    eventTypes: { state: true },
    secret: { state: true },
    open: { state: true },
    deliveries: { state: true },
    deleting: { state: true },
    problem: { state: true },
    said: { state: true },
  }
  declare user: User | null
  declare merchants: MerchantView[]
  declare merchantId: string
  declare endpoints: Endpoint[] | null
  declare eventTypes: string[]
  /** A secret just made (on adding or rotating), shown until the page is left. */
  declare secret: { url: string; secret: string } | null
  /** The endpoint whose deliveries are shown, and their filter. */
  declare open: { endpoint: Endpoint; failedOnly: boolean; type: string } | null
  declare deliveries: Delivery[] | null
  declare deleting: Endpoint | null
  declare problem: string
  declare said: string

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.user = null
    this.merchants = []
    this.merchantId = ''
    this.endpoints = null
    this.eventTypes = []
    this.secret = null
    this.open = null
    this.deliveries = null
    this.deleting = null
    this.problem = ''
    this.said = ''
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

  get #acts(): boolean {
    return this.user?.role !== 'viewer'
  }

  async #show(merchantId: string): Promise<void> {
    this.merchantId = merchantId
    if (!merchantId) return
    try {
      const answer = await api.webhooks(merchantId)
      this.endpoints = answer.data
      this.eventTypes = answer.eventTypes
      this.problem = ''
      if (this.open) await this.#loadDeliveries()
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  async #act(action: () => Promise<unknown>, said: string): Promise<void> {
    try {
      await action()
      this.said = said
      this.problem = ''
      await this.#show(this.merchantId)
    } catch (error) {
      this.said = ''
      this.problem = this.problemOf(error)
    }
  }

  #add(event: SubmitEvent): void {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const data = new FormData(form)
    const url = String(data.get('url') ?? '')
    const events = data.getAll('events').map(String)
    void this.#act(async () => {
      const made = await api.addEndpoint(this.merchantId, { url, events })
      this.secret = { url, secret: made.secret }
      form.reset()
    }, 'Endpoint added.')
  }

  #rotate(endpoint: Endpoint): void {
    void this.#act(async () => {
      const rotated = await api.endpointAction(this.merchantId, endpoint.id, 'rotate-secret')
      this.secret = { url: endpoint.url, secret: rotated.secret ?? '' }
    }, 'Secret rotated: the old one signs for 24 hours more.')
  }

  async #openDeliveries(endpoint: Endpoint): Promise<void> {
    this.open = { endpoint, failedOnly: false, type: '' }
    await this.#loadDeliveries()
    await this.updateComplete
    this.querySelector<HTMLElement>('#deliveries-title')?.focus()
  }

  async #loadDeliveries(): Promise<void> {
    const open = this.open
    if (!open) return
    const query = new URLSearchParams()
    if (open.failedOnly) query.set('failed', 'true')
    if (open.type) query.set('type', open.type)
    try {
      this.deliveries = (await api.deliveries(this.merchantId, open.endpoint.id, query.size > 0 ? `?${query}` : '')).data
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  #filter(event: Event): void {
    const form = (event.target as HTMLElement).closest('form')
    if (!form || !this.open) return
    const data = new FormData(form)
    this.open = { ...this.open, failedOnly: data.get('failed') === 'on', type: String(data.get('type') ?? '') }
    void this.#loadDeliveries()
  }

  #askToDelete(endpoint: Endpoint): void {
    this.deleting = endpoint
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('dialog')?.showModal())
  }

  #delete(confirmed: boolean): void {
    const endpoint = this.deleting
    this.querySelector<HTMLDialogElement>('dialog')?.close()
    this.deleting = null
    if (!confirmed || !endpoint) return
    if (this.open?.endpoint.id === endpoint.id) this.open = null
    void this.#act(() => api.endpointAction(this.merchantId, endpoint.id, 'delete'), 'Endpoint deleted.')
  }

  override render() {
    return html`
      <h1 tabindex="-1">Webhooks</h1>
      <p>Till tells a shop's server of payments and refunds by signed POST requests (Standard Webhooks).</p>
      ${
        this.merchants.length > 1
          ? html`<p><label for="webhooks-merchant">Merchant</label>
              <select id="webhooks-merchant" @change=${(event: Event) => this.#show((event.target as HTMLSelectElement).value)}>
                ${this.merchants.map((m) => html`<option value=${m.id} ?selected=${m.id === this.merchantId}>${m.name}</option>`)}
              </select></p>`
          : nothing
      }
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      <p role="status">${this.said}</p>
      ${this.secret ? this.#shownSecret(this.secret) : nothing}
      ${this.endpoints === null ? html`<p role="status">Loading endpoints…</p>` : this.endpoints.length === 0 ? html`<p>No endpoints yet.</p>` : this.#table(this.endpoints)}
      ${this.#acts && this.endpoints !== null ? this.#addForm() : nothing}
      ${this.open ? this.#deliveriesSection(this.open.endpoint) : nothing}
      ${
        this.deleting
          ? html`<dialog aria-labelledby="delete-title" @cancel=${() => this.#delete(false)}>
              <h2 id="delete-title">Delete the endpoint ${this.deleting.url}?</h2>
              <p>Till stops sending it anything. Its deliveries so far stay in the log.</p>
              <p><button type="button" @click=${() => this.#delete(true)}>Delete endpoint</button>
                <button type="button" @click=${() => this.#delete(false)}>Keep it</button></p>
            </dialog>`
          : nothing
      }
    `
  }

  #shownSecret(secret: { url: string; secret: string }) {
    return html`<section class="secret" aria-labelledby="secret-title">
      <h2 id="secret-title">Signing secret for ${secret.url}</h2>
      <p><strong>Copy it now: it will not be shown again.</strong> The shop's server checks each delivery's signature with it.</p>
      <p><code>${secret.secret}</code></p>
    </section>`
  }

  #table(endpoints: Endpoint[]) {
    return html`<div class="scrolls" role="region" aria-label="Endpoints" tabindex="0"><table>
      <caption class="visually-hidden">Webhook endpoints, newest first</caption>
      <thead><tr><th scope="col">Endpoint</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Last delivery</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>${endpoints.map((endpoint) => this.#row(endpoint))}</tbody>
    </table></div>`
  }

  #row(endpoint: Endpoint) {
    const all = endpoint.events.length === this.eventTypes.length
    const enabled = endpoint.status === 'enabled'
    return html`<tr>
      <th scope="row"><code>${endpoint.url}</code></th>
      <td>${all ? 'All events' : endpoint.events.join(', ')}</td>
      <td>${enabled ? 'Enabled' : `Disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`}</td>
      <td>${endpoint.lastDelivery ? `${when(endpoint.lastDelivery.at)} (${endpoint.lastDelivery.status})` : 'None yet'}</td>
      <td><span class="buttons">
        <button type="button" aria-label=${`Deliveries to ${endpoint.url}`} @click=${() => this.#openDeliveries(endpoint)}>Deliveries</button>
        ${
          this.#acts
            ? html`<button type="button" aria-label=${`Send a test event to ${endpoint.url}`} @click=${() => this.#act(() => api.endpointAction(this.merchantId, endpoint.id, 'test'), 'Test event sent.')}>Send test event</button>
                <button type="button" aria-label=${`${enabled ? 'Disable' : 'Enable'} ${endpoint.url}`} @click=${() => this.#act(() => api.endpointAction(this.merchantId, endpoint.id, enabled ? 'disable' : 'enable'), enabled ? 'Endpoint disabled.' : 'Endpoint enabled.')}>${enabled ? 'Disable' : 'Enable'}</button>
                <button type="button" aria-label=${`Rotate the secret of ${endpoint.url}`} @click=${() => this.#rotate(endpoint)}>Rotate secret</button>
                <button type="button" aria-label=${`Delete ${endpoint.url}`} @click=${() => this.#askToDelete(endpoint)}>Delete</button>`
            : nothing
        }
      </span></td>
    </tr>`
  }

  // Shown once the merchant's endpoints (and so its id and the event types) are in: a form sent before
  // would add to no merchant, with no events ticked.
  #addForm() {
    return html`<form class="stacked" aria-labelledby="add-title" @submit=${this.#add}>
      <h2 id="add-title">Add endpoint</h2>
      <p><label for="endpoint-url">URL</label><input id="endpoint-url" name="url" type="url" required placeholder="https://shop.example/pay/webhooks"></p>
      <fieldset>
        <legend>Event types</legend>
        ${this.eventTypes.map((type) => html`<p><input id=${`event-${type}`} name="events" type="checkbox" value=${type} checked><label for=${`event-${type}`}>${type}</label></p>`)}
      </fieldset>
      <p><button type="submit">Add endpoint</button></p>
    </form>`
  }

  #deliveriesSection(endpoint: Endpoint) {
    const open = this.open
    return html`<section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title" tabindex="-1">Deliveries to ${endpoint.url}</h2>
      <form class="filters" aria-label="Filter deliveries" @change=${this.#filter} @submit=${(event: SubmitEvent) => event.preventDefault()}>
        <p><input id="failed-only" name="failed" type="checkbox" ?checked=${open?.failedOnly}><label for="failed-only">Failed only</label></p>
        <p><label for="event-type">Event type</label><select id="event-type" name="type">
          <option value="">All</option>
          ${[...this.eventTypes, 'ping'].map((type) => html`<option value=${type} ?selected=${open?.type === type}>${type}</option>`)}
        </select></p>
      </form>
      ${
        this.deliveries === null
          ? html`<p role="status">Loading deliveries…</p>`
          : this.deliveries.length === 0
            ? html`<p>No deliveries match.</p>`
            : html`<ol class="plain deliveries">${this.deliveries.map((delivery) => this.#delivery(endpoint, delivery))}</ol>`
      }
    </section>`
  }

  #delivery(endpoint: Endpoint, delivery: Delivery) {
    return html`<li>
      <h3>${delivery.event.type} <code>${delivery.event.id}</code>: ${delivery.status}</h3>
      <ol>${delivery.attempts.map(
        (attempt) => html`<li>
          ${when(attempt.attemptedAt)}: ${attempt.statusCode === null ? attempt.error : `HTTP ${attempt.statusCode}`} in ${attempt.latencyMs} ms
          ${
            attempt.request
              ? html`<details><summary>Request as sent</summary><pre>${Object.entries(attempt.request.headers)
                  .map(([name, value]) => `${name}: ${value}`)
                  .join('\n')}

${attempt.request.body}</pre></details>`
              : nothing
          }
        </li>`,
      )}</ol>
      ${
        this.#acts
          ? html`<button type="button" aria-label=${`Redeliver ${delivery.event.type} ${delivery.event.id}`} @click=${() => this.#act(() => api.redeliverEndpoint(this.merchantId, endpoint.id, delivery.id), 'Delivery queued again.')}>Redeliver</button>`
          : nothing
      }
    </li>`
  }
}
