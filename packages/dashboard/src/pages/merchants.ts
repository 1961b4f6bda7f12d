import { html, nothing } from 'lit'
import { ApiProblem, api, type MerchantView, type User } from '../api.ts'
import { Page } from './page.ts'

type FieldErrors = Record<string, string>

/** The server's refusal by field, in its own words; a receiving account's line is named by its number. */
function fieldErrors(error: ApiProblem): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const line = /^settlementAddresses\[(\d+)\]$/.exec(issue.field)
    const field = line ? 'settlementAddresses' : issue.field
    const message = line ? `Line ${Number(line[1]) + 1}: ${issue.message}` : issue.message
    errors[field] = errors[field] ? `${errors[field]} ${message}` : message
  }
  return errors
}

/** A labelled field whose refusal is shown under it and read with it. */
function field(
  input: { id: string; label: string; errors: FieldErrors; name: string; hint?: string },
  control: (describedBy: string) => unknown,
) {
  const error = input.errors[input.name]
  const describedBy = [input.hint ? `${input.id}-hint` : '', error ? `${input.id}-error` : ''].filter(Boolean).join(' ')
  return html`<p>
    <label for=${input.id}>${input.label}</label>
    ${control(describedBy)}
    ${input.hint ? html`<span class="hint" id=${`${input.id}-hint`}>${input.hint}</span>` : nothing}
    ${error ? html`<span class="field-error" id=${`${input.id}-error`}>${error}</span>` : nothing}
  </p>`
}

const ACCOUNTS_HINT =
  'One account per line, one per network, as CAIP-10: the network (eip155:8453 is Base), then the address with its EIP-55 checksum, in mixed case as your wallet shows it.'

/**
 * "Merchants", for users of the whole partner: each merchant's logo, name, email, status and receiving
 * accounts. Admins and owners add one ("New merchant": name, email, logo URL) and edit one (name, logo,
 * receiving accounts); a refusal is shown beside its field, in the server's words.
 */
export class TillMerchants extends Page {
  static override properties = {
    user: { attribute: false },
    merchants: { state: true },
    problem: { state: true },
    createErrors: { state: true },
    editing: { state: true },
    editErrors: { state: true },
  }
  declare user: User | null
  declare merchants: MerchantView[] | null
  declare problem: string
  declare createErrors: FieldErrors
  declare editing: MerchantView | null
  declare editErrors: FieldErrors

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.user = null
    this.merchants = null
    this.problem = ''
    this.createErrors = {}
    this.editing = null
    this.editErrors = {}
  }

  override connectedCallback(): void {
    super.connectedCallback()
    void this.#load()
  }

  get #changes(): boolean {
    return this.user?.role !== 'viewer' && this.user?.merchantId === null
  }

  async #load(): Promise<void> {
    try {
      this.merchants = (await api.merchants()).data
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  /** Runs a change; a refusal by field goes beside its fields, anything else above the page. */
  async #submit(change: () => Promise<unknown>, errors: (found: FieldErrors) => void): Promise<boolean> {
    try {
      await change()
      errors({})
      this.problem = ''
      await this.#load()
      return true
    } catch (error) {
      if (error instanceof ApiProblem && error.issues.length > 0) errors(fieldErrors(error))
      else this.problem = this.problemOf(error)
      return false
    }
  }

  async #create(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const data = new FormData(form)
    const iconUrl = String(data.get('iconUrl') ?? '').trim()
    const body = {
      merchantName: String(data.get('merchantName') ?? ''),
      merchantEmail: String(data.get('merchantEmail') ?? ''),
      ...(iconUrl ? { iconUrl } : {}),
    }
    const made = await this.#submit(
      () => api.createMerchant(body),
      (found) => {
        this.createErrors = found
      },
    )
    if (made) form.reset()
  }

  #edit(merchant: MerchantView): void {
    this.editing = merchant
    this.editErrors = {}
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('#edit-title')?.focus())
  }

  async #save(event: SubmitEvent, merchant: MerchantView): Promise<void> {
    event.preventDefault()
    const data = new FormData(event.target as HTMLFormElement)
    const iconUrl = String(data.get('iconUrl') ?? '').trim()
    const body = {
      merchantName: String(data.get('merchantName') ?? ''),
      ...(data.get('removeLogo') ? { iconUrl: null } : iconUrl ? { iconUrl } : {}),
      settlementAddresses: String(data.get('settlementAddresses') ?? '')
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    }
    const saved = await this.#submit(
      () => api.updateMerchant(merchant.id, body),
      (found) => {
        this.editErrors = found
      },
    )
    if (saved) this.editing = null
  }

  override render() {
    return html`
      <h1 tabindex="-1">Merchants</h1>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      ${this.merchants ? this.#table(this.merchants) : html`<p role="status">Loading merchants…</p>`}
      ${this.editing ? this.#editForm(this.editing) : nothing}
      ${this.#changes ? this.#createForm() : nothing}
    `
  }

  #table(merchants: MerchantView[]) {
    return html`<div class="scrolls" role="region" aria-label="Merchants" tabindex="0"><table>
      <caption class="visually-hidden">Merchants, newest first</caption>
      <thead><tr><th scope="col">Merchant</th><th scope="col">Email</th><th scope="col">Status</th><th scope="col">Receiving accounts</th>${this.#changes ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : nothing}</tr></thead>
      <tbody>
        ${merchants.map(
          (merchant) => html`<tr>
            <th scope="row"><span class="merchant">${merchant.iconUrl ? html`<img src=${merchant.iconUrl} alt="" width="32" height="32">` : nothing}${merchant.name}</span></th>
            <td>${merchant.email}</td>
            <td>${merchant.status}</td>
            <td>${
              merchant.settlementAddresses.length > 0
                ? html`<ul class="plain">${merchant.settlementAddresses.map((account) => html`<li><code>${account}</code></li>`)}</ul>`
                : 'None yet'
            }</td>
            ${this.#changes ? html`<td><button type="button" aria-label=${`Edit ${merchant.name}`} @click=${() => this.#edit(merchant)}>Edit</button></td>` : nothing}
          </tr>`,
        )}
      </tbody>
    </table></div>`
  }

  #createForm() {
    const errors = this.createErrors
    return html`<form class="stacked" aria-labelledby="new-title" novalidate @submit=${this.#create}>
      <h2 id="new-title">New merchant</h2>
      ${field({ id: 'new-name', label: 'Name', name: 'merchantName', errors }, (by) => html`<input id="new-name" name="merchantName" required aria-invalid=${errors.merchantName ? 'true' : 'false'} aria-describedby=${by || nothing}>`)}
      ${field({ id: 'new-email', label: 'Email', name: 'merchantEmail', errors }, (by) => html`<input id="new-email" name="merchantEmail" type="email" required aria-invalid=${errors.merchantEmail ? 'true' : 'false'} aria-describedby=${by || nothing}>`)}
      ${field(
        {
          id: 'new-logo',
          label: 'Logo URL (optional)',
          name: 'iconUrl',
          errors,
          hint: 'An https:// address of a PNG, JPEG, WebP or AVIF image; Till keeps its own copy.',
        },
        (by) =>
          html`<input id="new-logo" name="iconUrl" type="url" aria-invalid=${errors.iconUrl ? 'true' : 'false'} aria-describedby=${by || nothing}>`,
      )}
      <p><button type="submit">Create merchant</button></p>
    </form>`
  }

  #editForm(merchant: MerchantView) {
    const errors = this.editErrors
    return html`<form class="stacked" aria-labelledby="edit-title" novalidate @submit=${(event: SubmitEvent) => this.#save(event, merchant)}>
      <h2 id="edit-title" tabindex="-1">Edit ${merchant.name}</h2>
      ${field({ id: 'edit-name', label: 'Name', name: 'merchantName', errors }, (by) => html`<input id="edit-name" name="merchantName" .value=${merchant.name} aria-invalid=${errors.merchantName ? 'true' : 'false'} aria-describedby=${by || nothing}>`)}
      ${field(
        { id: 'edit-logo', label: 'New logo URL (empty: keep the logo)', name: 'iconUrl', errors },
        (by) =>
          html`<input id="edit-logo" name="iconUrl" type="url" aria-invalid=${errors.iconUrl ? 'true' : 'false'} aria-describedby=${by || nothing}>`,
      )}
      ${merchant.iconUrl ? html`<p><input id="edit-remove-logo" name="removeLogo" type="checkbox"><label for="edit-remove-logo">Remove the logo</label></p>` : nothing}
      ${field(
        { id: 'edit-accounts', label: 'Receiving accounts', name: 'settlementAddresses', errors, hint: ACCOUNTS_HINT },
        (by) =>
          html`<textarea id="edit-accounts" name="settlementAddresses" rows="3" spellcheck="false" aria-invalid=${errors.settlementAddresses ? 'true' : 'false'} aria-describedby=${by || nothing} .value=${merchant.settlementAddresses.join('\n')}></textarea>`,
      )}
      <p>
        <button type="submit">Save</button>
        <button type="button" @click=${() => {
          this.editing = null
        }}>Cancel</button>
      </p>
    </form>`
  }
}
