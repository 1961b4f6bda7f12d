import { html, nothing } from 'lit'
import { api, type Member, type Team, type User } from '../api.ts'
import { when } from '../format.ts'
import { Page } from './page.ts'

const ROLES = ['owner', 'admin', 'viewer'] as const

/**
 * "Team", for owners of the whole partner: members with their role, merchant, passkeys and last sign-in;
 * "Invite" gives a link to send (Till sends no email); a role is changed, a member removed (after a
 * confirmation; their sessions end at once) and a passkey revoked. The partner always keeps an owner.
 */
export class TillTeam extends Page {
  static override properties = {
    user: { attribute: false },
    team: { state: true },
    merchants: { state: true },
    problem: { state: true },
    invited: { state: true },
    removing: { state: true },
  }
  declare user: User | null
  declare team: Team | null
  declare merchants: { id: string; name: string }[]
  declare problem: string
  declare invited: { email: string; url: string } | null
  declare removing: Member | null

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.user = null
    this.team = null
    this.merchants = []
    this.problem = ''
    this.invited = null
    this.removing = null
  }

  override connectedCallback(): void {
    super.connectedCallback()
    void this.#load()
    api.merchants().then(
      (merchants) => {
        this.merchants = merchants.data
      },
      () => {},
    )
  }

  async #load(): Promise<void> {
    try {
      this.team = await api.team()
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  async #act(action: () => Promise<unknown>): Promise<void> {
    try {
      await action()
      this.problem = ''
      await this.#load()
    } catch (error) {
      this.problem = this.problemOf(error)
    }
  }

  #invite(event: SubmitEvent): void {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const data = new FormData(form)
    const merchantId = String(data.get('merchant') ?? '')
    void this.#act(async () => {
      const made = await api.invite({
        email: String(data.get('email') ?? ''),
        role: String(data.get('role') ?? 'viewer'),
        ...(merchantId ? { merchantId } : {}),
      })
      this.invited = { email: made.email, url: made.invitationUrl }
      form.reset()
    })
  }

  #changeRole(event: SubmitEvent, member: Member): void {
    event.preventDefault()
    const role = String(new FormData(event.target as HTMLFormElement).get('role') ?? member.role)
    void this.#act(() => api.changeRole(member.id, role))
  }

  #askToRemove(member: Member): void {
    this.removing = member
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('dialog')?.showModal())
  }

  #remove(confirmed: boolean): void {
    const member = this.removing
    this.querySelector<HTMLDialogElement>('dialog')?.close()
    this.removing = null
    if (confirmed && member) void this.#act(() => api.removeMember(member.id))
  }

  override render() {
    return html`
      <h1 tabindex="-1">Team</h1>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      <form class="filters" aria-label="Invite" @submit=${this.#invite}>
        <p><label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="off"></p>
        <p><label for="role">Role</label><select id="role" name="role">${ROLES.map((role) => html`<option value=${role} ?selected=${role === 'viewer'}>${role}</option>`)}</select></p>
        ${
          this.merchants.length > 1
            ? html`<p><label for="merchant">Merchant</label><select id="merchant" name="merchant">
                <option value="">All merchants</option>
                ${this.merchants.map((m) => html`<option value=${m.id}>${m.name}</option>`)}
              </select></p>`
            : nothing
        }
        <p><button type="submit">Invite</button></p>
      </form>
      ${
        this.invited
          ? html`<section class="secret" aria-label="Invitation link">
              <p>Till sends no email: send this link to ${this.invited.email} yourself. It works once, for 24 hours.</p>
              <p><code>${this.invited.url}</code></p>
            </section>`
          : nothing
      }
      ${this.team ? this.#members(this.team) : html`<p role="status">Loading the team…</p>`}
      ${
        this.removing
          ? html`<dialog aria-labelledby="remove-title" @cancel=${() => this.#remove(false)}>
              <h2 id="remove-title">Remove ${this.removing.email}?</h2>
              <p>They are signed out everywhere at once, and their passkeys are deleted.</p>
              <p>
                <button type="button" @click=${() => this.#remove(true)}>Remove member</button>
                <button type="button" @click=${() => this.#remove(false)}>Keep them</button>
              </p>
            </dialog>`
          : nothing
      }
    `
  }

  #members(team: Team) {
    return html`
      <div class="scrolls" role="region" aria-label="Members" tabindex="0"><table>
        <caption class="visually-hidden">Members</caption>
        <thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Merchant</th><th scope="col">Passkeys</th><th scope="col">Last sign-in</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody>${team.members.map((member) => this.#member(member))}</tbody>
      </table></div>
      ${
        team.invitations.length > 0
          ? html`<h2>Open invitations</h2>
            <ul>${team.invitations.map((invitation) => html`<li>${invitation.email}, ${invitation.role}, until ${when(invitation.expiresAt)}</li>`)}</ul>`
          : nothing
      }
    `
  }

  #member(member: Member) {
    const active = member.status === 'active'
    return html`<tr>
      <th scope="row">${member.email}${member.id === this.user?.id ? ' (you)' : ''}</th>
      <td>${
        active
          ? html`<form class="inline" @submit=${(event: SubmitEvent) => this.#changeRole(event, member)}>
              <select name="role" aria-label=${`Role of ${member.email}`}>${ROLES.map((role) => html`<option value=${role} ?selected=${role === member.role}>${role}</option>`)}</select>
              <button type="submit" aria-label=${`Change the role of ${member.email}`}>Change</button>
            </form>`
          : member.role
      }</td>
      <td>${member.merchant?.name ?? 'All'}</td>
      <td>${
        member.passkeys.length === 0
          ? member.hasPassword
            ? 'None (password)'
            : 'None'
          : html`<ul class="plain">${member.passkeys.map(
              (passkey) => html`<li>${passkey.name}
                <button type="button" aria-label=${`Revoke the passkey ${passkey.name} of ${member.email}`} @click=${() => this.#act(() => api.revokePasskey(member.id, passkey.id))}>Revoke</button></li>`,
            )}</ul>`
      }</td>
      <td>${member.lastSignInAt ? when(member.lastSignInAt) : 'Never'}</td>
      <td>${active ? 'Active' : 'Removed'}</td>
      <td>${active ? html`<button type="button" aria-label=${`Remove ${member.email}`} @click=${() => this.#askToRemove(member)}>Remove</button>` : nothing}</td>
    </tr>`
  }
}
