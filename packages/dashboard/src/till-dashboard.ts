import { html, LitElement, nothing } from 'lit'
import { ApiProblem, api, type User } from './api.ts'

// Each page's address under /dashboard/, but a payment's (payments/<id>) and the Payments page (the rest).
const PAGES = {
  invitation: 'invitation',
  'sign-in': 'sign-in',
  'audit-log': 'audit-log',
  'api-keys': 'api-keys',
  team: 'team',
  merchants: 'merchants',
  'unapplied-transfers': 'unapplied',
  account: 'account',
  webhooks: 'webhooks',
} as const

type Route = { page: (typeof PAGES)[keyof typeof PAGES] | 'payments' | 'payment'; paymentId?: string }

/** Where the address bar is, in the dashboard's pages: everything under /dashboard/. */
function routeOf(path: string): Route {
  const rest = path.replace(/^\/dashboard\/?/, '')
  if (Object.hasOwn(PAGES, rest)) return { page: PAGES[rest as keyof typeof PAGES] }
  const payment = /^payments\/(pay_[0-9a-z]+)$/.exec(rest)
  return payment ? { page: 'payment', paymentId: payment[1] } : { page: 'payments' }
}

/**
 * The dashboard: who is signed in, the navigation, and the page the address names. Links are ordinary
 * links; a click on one inside the dashboard changes the page without a reload.
 *
 * @fires till-navigate - A page asks to go to another address (detail: the path).
 */
export class TillDashboard extends LitElement {
  static override properties = { user: { state: true }, route: { state: true }, ready: { state: true } }
  declare user: User | null
  declare route: Route
  declare ready: boolean

  // Reactive properties are set here, not as class fields: a field would hide Lit's accessor.
  constructor() {
    super()
    this.user = null
    this.route = routeOf(location.pathname)
    this.ready = false
  }

  // The whole dashboard shares one stylesheet: no shadow roots.
  protected override createRenderRoot() {
    return this
  }

  override connectedCallback(): void {
    super.connectedCallback()
    window.addEventListener('popstate', () => this.go(location.pathname, false))
    this.addEventListener('click', (event) => this.#follow(event))
    this.addEventListener('till-navigate', (event) => this.go((event as CustomEvent<string>).detail))
    this.addEventListener('till-signed-in', (event) => {
      this.user = (event as CustomEvent<User>).detail
      this.go('/dashboard/')
    })
    void this.#start()
  }

  async #start(): Promise<void> {
    if (this.route.page !== 'invitation') {
      try {
        this.user = (await api.session()).user
      } catch (error) {
        if (!(error instanceof ApiProblem) || error.status !== 401) throw error
        if (this.route.page !== 'sign-in') this.go('/dashboard/sign-in', true)
      }
    }
    this.ready = true
  }

  go(path: string, push = true): void {
    if (push && path !== location.pathname + location.search) history.pushState(null, '', path)
    this.route = routeOf(path)
    // The new page's heading takes the focus, as a page load would put a screen reader at its top.
    void this.updateComplete.then(() => this.querySelector<HTMLElement>('main h1')?.focus())
  }

  #follow(event: MouseEvent): void {
    const link = (event.target as Element | null)?.closest('a')
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || link.target) return
    const url = new URL(link.href)
    // Downloads (the export) and anything outside the dashboard's pages load as the browser would.
    if (url.origin !== location.origin || !url.pathname.startsWith('/dashboard/') || link.hasAttribute('download')) return
    if (url.pathname.startsWith('/dashboard/api/')) return
    event.preventDefault()
    this.go(url.pathname + url.search)
  }

  async #signOut(everywhere: boolean): Promise<void> {
    if (everywhere) await api.signOutEverywhere()
    else await api.signOut()
    this.user = null
    this.go('/dashboard/sign-in')
  }

  override render() {
    if (!this.ready) return html`<p role="status">Loading…</p>`
    const user = this.user
    return html`
      <header class="bar">
        <a class="brand" href="/dashboard/">Till</a>
        ${
          user
            ? html`<nav aria-label="Dashboard">
                <a href="/dashboard/" aria-current=${this.route.page === 'payments' ? 'page' : 'false'}>Payments</a>
                ${
                  user.merchantId === null
                    ? html`<a href="/dashboard/merchants" aria-current=${this.route.page === 'merchants' ? 'page' : 'false'}>Merchants</a>`
                    : nothing
                }
                <a href="/dashboard/webhooks" aria-current=${this.route.page === 'webhooks' ? 'page' : 'false'}>Webhooks</a>
                <a href="/dashboard/unapplied-transfers" aria-current=${this.route.page === 'unapplied' ? 'page' : 'false'}>Unapplied transfers</a>
                ${
                  user.role === 'owner' && user.merchantId === null
                    ? html`<a href="/dashboard/api-keys" aria-current=${this.route.page === 'api-keys' ? 'page' : 'false'}>API keys</a>
                        <a href="/dashboard/team" aria-current=${this.route.page === 'team' ? 'page' : 'false'}>Team</a>`
                    : nothing
                }
                ${
                  user.role === 'owner'
                    ? html`<a href="/dashboard/audit-log" aria-current=${this.route.page === 'audit-log' ? 'page' : 'false'}>Audit log</a>`
                    : nothing
                }
              </nav>
              <p class="who"><a href="/dashboard/account" aria-current=${this.route.page === 'account' ? 'page' : 'false'} aria-label=${`Your account: ${user.email}, ${user.role}`}>${user.email}</a> <span class="role">${user.role}</span></p>
              <button type="button" @click=${() => this.#signOut(false)}>Sign out</button>
              <button type="button" @click=${() => this.#signOut(true)}>Sign out everywhere</button>`
            : nothing
        }
      </header>
      <main>${this.#page(user)}</main>
    `
  }

  #page(user: User | null) {
    const { page, paymentId } = this.route
    if (page === 'invitation') return html`<till-invitation></till-invitation>`
    if (!user) return html`<till-sign-in></till-sign-in>`
    if (page === 'payment' && paymentId) return html`<till-payment .paymentId=${paymentId} .user=${user}></till-payment>`
    if (page === 'audit-log') return html`<till-audit-log></till-audit-log>`
    if (page === 'api-keys') return html`<till-api-keys></till-api-keys>`
    if (page === 'team') return html`<till-team .user=${user}></till-team>`
    if (page === 'merchants') return html`<till-merchants .user=${user}></till-merchants>`
    if (page === 'unapplied') return html`<till-unapplied .user=${user}></till-unapplied>`
    if (page === 'account') return html`<till-account .user=${user}></till-account>`
    if (page === 'webhooks') return html`<till-webhooks .user=${user}></till-webhooks>`
    return html`<till-payments .query=${location.search.slice(1)}></till-payments>`
  }
}
