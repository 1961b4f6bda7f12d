import { html, nothing } from 'lit'
import { type ApiKey, api } from '../api.ts'
import { when } from '../format.ts'
import { Page } from './page.ts'

/**
 * "API keys", for owners of the whole partner: the keys with who made them and when they were last used;
 * "Create API key" shows the new secret once, to copy; "Revoke" asks first, and the key stops working at
 * once on every instance.
 */
export class TillApiKeys extends Page {
  static override properties = {
    keys: { state: true },
    problem: { state: true },
    secret: { state: true },
    revoking: { state: true },
    copied: { state: true },
  }
  declare keys: ApiKey[] | null
  declare problem: string
  /** The key just made, shown until the page is left: Till keeps only its hash. */
  declare secret: { label: string; key: string } | null
  declare revoking: ApiKey | null
  declare copied: boolean

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.keys = null
    this.problem = ''
    this.secret = null
    this.revoking = null
    this.copied = false
  }

  override connectedCallback(): void {
    super.connectedCallback()
    void this.#load()
  }

  async #load(): Promise<void> {
    try {
      this.keys = (await api.apiKeys()).data
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const label = String(new FormData(form).get('label') ?? '')
    try {
      const made = await api.createApiKey(label)
      this.secret = { label: made.apiKey.label ?? '', key: made.key }
      this.copied = false
      this.problem = ''
      form.reset()
      await this.#load()
      await this.updateComplete
      this.querySelector<HTMLElement>('#new-key')?.focus()
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  async #copy(): Promise<void> {
    if (!this.secret) return
    await navigator.clipboard.writeText(this.secret.key)
    this.copied = true
  }

  #askToRevoke(key: ApiKey): void {
    this.revoking = key
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('dialog')?.showModal())
  }

  async #revoke(confirmed: boolean): Promise<void> {
    const key = this.revoking
    this.querySelector<HTMLDialogElement>('dialog')?.close()
    this.revoking = null
    if (!confirmed || !key) return
    try {
      await api.revokeApiKey(key.id)
      this.problem = ''
      await this.#load()
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  override render() {
    return html`
      <h1 tabindex="-1">API keys</h1>
      <p>A key lets a shop's backend call Till's API for every merchant of the partner. Keep it on the server.</p>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      ${this.secret ? this.#shown(this.secret) : nothing}
      <form class="filters" aria-label="Create API key" @submit=${this.#create}>
        <p><label for="label">Name</label><input id="label" name="label" required maxlength="100" placeholder="Shop backend"></p>
        <p><button type="submit">Create API key</button></p>
      </form>
      ${this.keys ? this.#table(this.keys) : html`<p role="status">Loading API keys…</p>`}
      ${
        this.revoking
          ? html`<dialog aria-labelledby="revoke-title" @cancel=${() => this.#revoke(false)}>
              <h2 id="revoke-title">Revoke ${this.revoking.label ?? this.revoking.prefix}?</h2>
              <p>Every request made with it is refused from now on, on every Till instance. This cannot be undone.</p>
              <p>
                <button type="button" @click=${() => this.#revoke(true)}>Revoke key</button>
                <button type="button" @click=${() => this.#revoke(false)}>Keep it</button>
              </p>
            </dialog>`
          : nothing
      }
    `
  }

  #shown(secret: { label: string; key: string }) {
    return html`<section class="secret" aria-labelledby="new-key">
      <h2 id="new-key" tabindex="-1">New key: ${secret.label}</h2>
      <p><strong>Copy it now: it will not be shown again.</strong> Till keeps only a hash of it.</p>
      <p><code>${secret.key}</code></p>
      <p>
        <button type="button" @click=${this.#copy}>Copy</button>
        <span role="status">${this.copied ? 'Copied.' : ''}</span>
      </p>
    </section>`
  }

  #table(keys: ApiKey[]) {
    return html`<div class="scrolls" role="region" aria-label="API keys" tabindex="0"><table>
      <caption class="visually-hidden">API keys, newest first</caption>
      <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Created by</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
      <tbody>
        ${keys.map(
          (key) => html`<tr>
            <th scope="row">${key.label ?? '(no name)'}</th>
            <td><code>${key.prefix}</code></td>
            <td>${key.createdBy ?? ''}</td>
            <td>${when(key.createdAt)}</td>
            <td>${key.lastUsedAt ? when(key.lastUsedAt) : 'Never'}</td>
            <td>${key.status === 'active' ? 'Active' : 'Revoked'}</td>
            <td>${key.status === 'active' ? html`<button type="button" aria-label=${`Revoke ${key.label ?? key.prefix}`} @click=${() => this.#askToRevoke(key)}>Revoke</button>` : nothing}</td>
          </tr>`,
        )}
      </tbody>
    </table></div>`
  }
}
