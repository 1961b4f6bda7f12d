import { html, nothing } from 'lit'
import { startAuthentication } from '@simplewebauthn/browser'
import { api } from '../api.ts'
import { Page } from './page.ts'

/**
 * Signing in with email and password. The server answers a wrong email and a wrong password alike.
 *
 * @fires till-signed-in - The user signed in (detail: the user).
 */
export class TillSignIn extends Page {
  static override properties = { problem: { state: true }, busy: { state: true } }
  declare problem: string
  declare busy: boolean

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.problem = ''
    this.busy = false
  }

  async #passkey(): Promise<void> {
    this.busy = true
    await this.signInWith(
      () => api.signInWithPasskey((options) => startAuthentication({ optionsJSON: options as never })),
      (problem) => {
        this.problem = problem
      },
    )
    this.busy = false
  }

  async #submit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const form = new FormData(event.target as HTMLFormElement)
    this.busy = true
    await this.signInWith(
      () => api.signIn(String(form.get('email')), String(form.get('password'))),
      (problem) => {
        this.problem = problem
      },
    )
    this.busy = false
  }

  override render() {
    return html`
      <h1 tabindex="-1">Sign in</h1>
      <p><button type="button" ?disabled=${this.busy} @click=${this.#passkey}>Sign in with a passkey</button></p>
      <p>Or with your email and password:</p>
      <form @submit=${this.#submit}>
        <p><label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required></p>
        <p><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></p>
        ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
        <p><button type="submit" ?disabled=${this.busy}>Sign in</button></p>
      </form>
    `
  }
}
