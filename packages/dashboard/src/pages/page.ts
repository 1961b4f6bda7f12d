import { LitElement } from 'lit'
import { ApiProblem } from '../api.ts'

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

  protected navigate(path: string): void {
    this.dispatchEvent(new CustomEvent('till-navigate', { detail: path, bubbles: true, composed: true }))
  }
}
