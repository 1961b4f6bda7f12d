import { html, nothing } from 'lit'
import { startRegistration } from '@simplewebauthn/browser'
import { api } from '../api.ts'
import { Page } from './page.ts'

/**
 * An invitation link (`/dashboard/invitation#<token>`): who it is for, and a password to make the account with.
 * The token stays in the fragment, which no request carries but the ones this page makes.
 *
 * @fires till-signed-in - The account was made, and its user signed in (detail: the user).
 */
export class TillInvitation extends Page {
  static override properties = { invited: { state: true }, problem: { state: true }, busy: { state: true } }
  declare invited: { email: string; role: string } | null
  declare problem: string
  declare busy: boolean

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.invited = null
    this.problem = ''
    this.busy = false
  }
  readonly #token = location.hash.slice(1)

  override connectedCallback(): void {
    super.connectedCallback()
    api.invitation(this.#token).then(
      (invited) => {
        this.invited = invited
      },
      (error: unknown) => {
        this.problem = this.problemOf(error)
      },
    )
  }

  async #passkey(): Promise<void> {
    this.busy = true
    await this.signInWith(
      () => api.passkeyForInvitation(this.#token, (options) => startRegistration({ optionsJSON: options as never })),
      (problem) => {
        this.problem = problem
      },
    )
    this.busy = false
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const password = String(new FormData(event.target as HTMLFormElement).get('password'))
    this.busy = true
    await this.signInWith(
      () => api.accept(this.#token, password),
      (problem) => {
        this.problem = problem
      },
    )
    this.busy = false
  }

  override render() {
    const invited = this.invited
    return html`
      <h1 tabindex="-1">Join the dashboard</h1>
      ${
        invited
          ? html`<p>You are invited as <strong>${invited.email}</strong>, with the ${invited.role} role.</p>
            <p><button type="button" ?disabled=${this.busy} @click=${this.#passkey}>Create a passkey</button></p>
            <p>Or choose a password:</p>
            <form @submit=${this.#submit}>
              <p>
                <label for="password">Choose a password</label>
                <input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required aria-describedby="password-hint">
              </p>
              <p class="hint" id="password-hint">At least 12 characters. A few unrelated words are easy to remember and hard to guess.</p>
              ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
              <p><button type="submit" ?disabled=${this.busy}>Create my account</button></p>
            </form>`
          : this.problem
            ? html`<p class="problem" role="alert">${this.problem}</p>`
            : html`<p role="status">Checking the invitation…</p>`
      }
    `
  }
}
