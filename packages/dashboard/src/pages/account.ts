import { startRegistration } from '@simplewebauthn/browser'
import { html, nothing } from 'lit'
import { type AccountView, api, type User } from '../api.ts'
import { when } from '../format.ts'
import { Page } from './page.ts'

/**
 * "Your account": your passkeys (add one from this device, rename, remove), your password (set one, or
 * change it with the current one), and where you are signed in (end a session; "Sign out everywhere" is in
 * the bar). Till refuses to take away your last way to sign in, and says so.
 */
export class TillAccount extends Page {
  static override properties = { user: { attribute: false }, view: { state: true }, problem: { state: true }, said: { state: true } }
  declare user: User | null
  declare view: AccountView | null
  declare problem: string
  /** What the last change did, said to screen readers too. */
  declare said: string

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.user = null
    this.view = null
    this.problem = ''
    this.said = ''
  }

  override connectedCallback(): void {
    super.connectedCallback()
    void this.#load()
  }

  async #load(): Promise<void> {
    try {
      this.view = await api.account()
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  async #act(action: () => Promise<unknown>, said: string): Promise<boolean> {
    try {
      await action()
      this.problem = ''
      this.said = said
      await this.#load()
      return true
    } catch (error) {
      this.said = ''
      this.problem = error instanceof Error && error.name === 'NotAllowedError' ? 'No passkey was made. Try again.' : this.problemOf(error)
      return false
    }
  }

  #addPasskey(event: SubmitEvent): void {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const name = String(new FormData(form).get('name') ?? '')
    void this.#act(
      () => api.addPasskey(name, (options) => startRegistration({ optionsJSON: options as never })),
      `Passkey “${name}” added.`,
    ).then((done) => done && form.reset())
  }

  #rename(event: SubmitEvent, id: string): void {
    event.preventDefault()
    const name = String(new FormData(event.target as HTMLFormElement).get('name') ?? '')
    void this.#act(() => api.renamePasskey(id, name), `Renamed to “${name}”.`)
  }

  #password(event: SubmitEvent): void {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const data = new FormData(form)
    const current = String(data.get('currentPassword') ?? '')
    const body = { newPassword: String(data.get('newPassword') ?? ''), ...(current ? { currentPassword: current } : {}) }
    void this.#act(() => api.setPassword(body), 'Password saved.').then((done) => done && form.reset())
  }

  override render() {
    const view = this.view
    return html`
      <h1 tabindex="-1">Your account</h1>
      <p>${this.user?.email} <span class="role">${this.user?.role}</span></p>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      <p role="status">${this.said}</p>
      ${view ? this.#sections(view) : html`<p role="status">Loading your account…</p>`}
    `
  }

  #sections(view: AccountView) {
    return html`
      <section aria-labelledby="passkeys-title">
        <h2 id="passkeys-title">Passkeys</h2>
        ${
          view.passkeys.length === 0
            ? html`<p>No passkeys yet.</p>`
            : html`<ul class="plain">${view.passkeys.map(
                (passkey) => html`<li>
                  <form class="inline" @submit=${(event: SubmitEvent) => this.#rename(event, passkey.id)}>
                    <label class="visually-hidden" for=${`name-${passkey.id}`}>Name of ${passkey.name}</label>
                    <input id=${`name-${passkey.id}`} name="name" .value=${passkey.name} maxlength="60" required>
                    <button type="submit" aria-label=${`Rename ${passkey.name}`}>Rename</button>
                    <button type="button" aria-label=${`Remove ${passkey.name}`} @click=${() => this.#act(() => api.removePasskey(passkey.id), `Passkey “${passkey.name}” removed.`)}>Remove</button>
                    <span class="hint">Added ${when(passkey.createdAt)}${passkey.lastUsedAt ? `, last used ${when(passkey.lastUsedAt)}` : ', never used'}</span>
                  </form>
                </li>`,
              )}</ul>`
        }
        <form class="inline" aria-label="Add a passkey" @submit=${this.#addPasskey}>
          <label for="new-passkey">Name for a new passkey</label>
          <input id="new-passkey" name="name" placeholder="Work laptop" maxlength="60" required>
          <button type="submit">Add a passkey</button>
        </form>
      </section>
      <section aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <form class="stacked" aria-labelledby="password-title" @submit=${this.#password}>
          ${
            view.hasPassword
              ? html`<p><label for="current-password">Current password</label><input id="current-password" name="currentPassword" type="password" autocomplete="current-password" required></p>`
              : html`<p>You have no password: you sign in with a passkey. You may set one too.</p>`
          }
          <p><label for="new-password">New password</label><input id="new-password" name="newPassword" type="password" autocomplete="new-password" minlength="12" required aria-describedby="new-password-hint">
            <span class="hint" id="new-password-hint">At least 12 characters; a common password is refused.</span></p>
          <p><button type="submit">${view.hasPassword ? 'Change password' : 'Set password'}</button></p>
        </form>
      </section>
      <section aria-labelledby="sessions-title">
        <h2 id="sessions-title">Where you are signed in</h2>
        <ul class="plain">${view.sessions.map(
          (session) => html`<li>
            Since ${when(session.createdAt)}, last seen ${when(session.lastSeenAt)}${session.address ? ` from ${session.address}` : ''}
            ${
              session.current
                ? html`<strong>(this browser)</strong>`
                : html`<button type="button" aria-label=${`End the session from ${when(session.createdAt)}`} @click=${() => this.#act(() => api.endSession(session.id), 'Session ended.')}>End</button>`
            }
          </li>`,
        )}</ul>
      </section>
    `
  }
}
