import { html, nothing } from 'lit'
import { type AuditEntry, api } from '../api.ts'
import { when } from '../format.ts'
import { Page } from './page.ts'

/** The owner's "Audit log": who did what, when and from where, newest first. */
export class TillAuditLog extends Page {
  static override properties = { entries: { state: true }, problem: { state: true } }
  declare entries: AuditEntry[] | null
  declare problem: string

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.entries = null
    this.problem = ''
  }

  override connectedCallback(): void {
    super.connectedCallback()
    api.auditLog().then(
      (log) => {
        this.entries = log.data
      },
      (error: unknown) => {
        this.problem = this.problemOf(error)
      },
    )
  }

  override render() {
    return html`
      <h1 tabindex="-1">Audit log</h1>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      ${
        this.entries
          ? html`<div class="scrolls" role="region" aria-label="Audit log, newest first" tabindex="0"><table>
            <caption class="visually-hidden">Audit log, newest first</caption>
            <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">On</th><th scope="col">From</th></tr></thead>
            <tbody>
              ${this.entries.map(
                (entry) =>
                  html`<tr><td>${when(entry.at)}</td><td>${entry.actor ?? ''}</td><td>${entry.action.replaceAll('_', ' ')}</td><td>${entry.target ?? ''}</td><td>${entry.address ?? ''}</td></tr>`,
              )}
            </tbody>
          </table></div>`
          : nothing
      }
    `
  }
}
