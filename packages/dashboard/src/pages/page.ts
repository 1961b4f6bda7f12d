import { LitElement } from 'lit'
import { ApiProblem, type Signed } from '../api.ts'

/** The dashboard's pages share its one stylesheet (no shadow root), and say what went wrong in the server's words. */
export class Page extends LitElement {
  protected override createRenderRoot() {
    return this
  }

  /** The server's message for a refusal; anything else is a network failure. */
  protected problemOf(error: unknown): string {
    if (error instanceof ApiProblem) return error.issues[0] ? `${error.issues[0].message}.` : error.message
    return 'The dashboard could not reach Till. Check the connection and try again.'
  }

  /**
   * Runs one way of signing in (a password, a passkey): the user goes up to the dashboard in `till-signed-in`,
   * a refusal into `report`. A passkey prompt the person closed is no error of Till's.
   */
  protected async signInWith(attempt: () => Promise<Signed>, report: (problem: string) => void): Promise<void> {
    try {
      const signed = await attempt()
      this.dispatchEvent(new CustomEvent('till-signed-in', { detail: signed.user, bubbles: true, composed: true }))
    } catch (error) {
      report(error instanceof Error && error.name === 'NotAllowedError' ? 'No passkey was used. Try again.' : this.problemOf(error))
    }
  }

  protected navigate(path: string): void {
    this.dispatchEvent(new CustomEvent('till-navigate', { detail: path, bubbles: true, composed: true }))
  }
}
