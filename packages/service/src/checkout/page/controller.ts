import type { CheckoutStatus, CheckoutWallet, PaymentOption, SandboxWalletId } from '@till/contract'
import { failureNotice, GatewayError } from './api.ts'
import { postBridgeMessage } from './bridge.ts'
import type { ControllerDeps } from './controller-ports.ts'
import { followStatus } from './follow.ts'
import { clockOffset, isFinalView, newer, payableOptions, selectedOption, viewKey } from './model.ts'
import type { ChooseStep, Model, Step, ViewKey } from './model.ts'
import { announcement, viewKit, type Actions } from './view.ts'
import type { BrowserPath, BrowserPathHost } from './wallets/browser-path.ts'
import { type AnnouncedWallet, DEV_WALLET_UUID } from './wallets/discovery.ts'

/**
 * Runs the page: holds the model, renders it, follows the payment's status by long-polling, and drives
 * the countdown. Status only ever comes from the service; the page never decides an outcome itself.
 */
export class CheckoutController {
  #model: Model
  #shown: ViewKey | null = null
  readonly #stop = new AbortController()
  #stepAbort: AbortController | null = null
  #ticker: ReturnType<typeof setInterval> | undefined
  #ended = false
  #stopDiscovery = () => {}
  /** The wallet chunk's path for the browser wallet the buyer picked last. */
  #browser: BrowserPath | null = null
  #outcomeLoad: Promise<void> | null = null

  readonly #deps: ControllerDeps

  constructor(deps: ControllerDeps) {
    this.#deps = deps
    const now = Date.now()
    this.#model = {
      session: deps.session,
      status: deps.session.state,
      clockOffsetMs: clockOffset(deps.session.state, now),
      step: { name: 'connect' },
      notice: null,
      browserWallets: [],
      redirectAt: null,
      now,
      outcome: null,
    }
  }

  start() {
    this.#render(false)
    if (this.#model.status.isFinal) return this.#end()
    this.#ticker = setInterval(() => this.#update({ now: Date.now() }), 1_000)
    void followStatus({
      api: this.#deps.api,
      signal: this.#stop.signal,
      wait: this.#deps.wait,
      current: () => this.#model.status,
      onStatus: (status) => {
        if (this.#model.notice?.kind === 'network') this.#update({ notice: null }, false)
        this.#apply(status)
      },
      onUnreachable: () => this.#update({ notice: { kind: 'network' } }, false),
    })
    // The service names the browser wallet for when it cannot be told apart: window.ethereum says nothing.
    const browser = this.#deps.session.wallets.find((wallet) => wallet.id === 'browser')
    if (browser) this.#stopDiscovery = this.#deps.discoverWallets(browser.name, (browserWallets) => this.#update({ browserWallets }, false))
  }

  dispose() {
    this.#stop.abort()
    this.#stepAbort?.abort()
    this.#stopDiscovery()
    clearInterval(this.#ticker)
  }

  #update(patch: Partial<Model>, focus = true) {
    this.#model = { ...this.#model, ...patch }
    this.#render(focus)
  }

  #render(focus: boolean) {
    const { screen, t } = this.#deps
    const key = viewKey(this.#model)
    const changed = key !== this.#shown
    const first = this.#shown === null
    this.#shown = key
    if (key === 'processing' || isFinalView(key)) this.#loadOutcome()
    // Focus follows the screen, but not on first load: the buyer starts at the top, with the amount.
    screen.show(this.#model, this.#actions, focus && changed && !first)
    const text = changed ? announcement(this.#model, key, t) : ''
    if (text) screen.announce(text)
  }

  /** Takes a status from the service: never moves the page backwards, and ends the page on a final one. */
  #apply(status: CheckoutStatus) {
    const merged = newer(this.#model.status, status)
    const patch: Partial<Model> = { status: merged, clockOffsetMs: clockOffset(status, Date.now()), now: Date.now() }
    if (merged.status !== 'pending' && this.#model.step.name !== 'connect') patch.step = { name: 'connect' }
    this.#update(patch)
    if (merged.isFinal) this.#end()
  }

  #end() {
    if (this.#ended) return
    this.#ended = true
    this.dispose()
    const key = viewKey(this.#model)
    if (isFinalView(key)) postBridgeMessage(key === 'succeeded', this.#deps.t.finalHeading[key])
    const redirect = this.#model.status.redirect
    if (!redirect) return
    const start = Date.now()
    this.#update({ redirectAt: start + redirect.countdownMs, now: start }, false)
    const tick = setInterval(() => this.#update({ now: Date.now() }, false), 250)
    setTimeout(() => {
      clearInterval(tick)
      this.#update({ now: Date.now() }, false)
      this.#deps.navigate(redirect.url)
    }, redirect.countdownMs)
  }

  async #loadOptions(wallet: CheckoutWallet, address: string) {
    this.#loadOutcome()
    this.#stepAbort?.abort()
    const abort = new AbortController()
    this.#stepAbort = abort
    this.#update({ step: { name: 'choose', wallet, address, options: { state: 'loading' } }, notice: null })
    try {
      const options = payableOptions(wallet, (await this.#deps.api.options(abort.signal)).options)
      if (abort.signal.aborted) return
      this.#update(
        { step: { name: 'choose', wallet, address, options: { state: 'ready', options, selected: options[0]?.id ?? null } } },
        false,
      )
    } catch (error) {
      if (abort.signal.aborted) return
      this.#update({
        step: { name: 'choose', wallet, address, options: { state: 'error' } },
        notice: error instanceof GatewayError && error.status === 429 ? { kind: 'rateLimited' } : { kind: 'optionsFailed' },
      })
    }
  }

  /**
   * Loads the outcome chunk (the rest of the processing and final screens, the words of a failed step's
   * notice), once: when the buyer picks a wallet or acts, so that it is there by the time it is needed, or
   * when such a screen is shown first. Until then, or if it fails to load, those screens show their
   * headings and a notice its generic words; the redirect does not wait for it.
   */
  #loadOutcome() {
    this.#outcomeLoad ??= import('./outcome.ts').then(
      ({ outcomeScreens }) => this.#update({ outcome: outcomeScreens(viewKit, this.#deps.t) }, false),
      () => {},
    )
  }

  /** Loads the wallet code only now that the buyer picked a browser wallet, then asks it for an account. */
  async #connectBrowser(announced: AnnouncedWallet) {
    this.#stepAbort?.abort()
    const signsForYou = announced.uuid === DEV_WALLET_UUID
    const step: Step = { name: 'connecting', wallet: { id: 'browser', name: announced.name }, signsForYou }
    this.#update({ step, notice: null })
    let path: BrowserPath
    try {
      const { browserPath } = await import('./wallets/browser-path.ts')
      path = browserPath(this.#walletHost(), announced, signsForYou)
    } catch {
      if (this.#model.step === step) this.#update({ step: { name: 'connect' }, notice: { kind: 'walletLoadFailed' } })
      return
    }
    // The buyer may have gone back while the code loaded: then no wallet is asked anything.
    if (this.#model.step !== step) return
    this.#browser = path
    await path.connect(step)
  }

  #walletHost(): BrowserPathHost {
    return {
      kit: viewKit,
      t: this.#deps.t,
      model: () => this.#model,
      show: (step, notice = null) => this.#update({ step, notice }),
      loadOptions: (wallet, address) => void this.#loadOptions(wallet, address),
      apply: (status) => this.#apply(status),
      api: this.#deps.api,
      signal: this.#stop.signal,
      wait: (ms) => this.#deps.wait(ms, this.#stop.signal),
    }
  }

  async #paySandbox(step: ChooseStep, walletId: SandboxWalletId, option: PaymentOption) {
    this.#update({ step: { name: 'signing', wallet: step.wallet, address: step.address, option }, notice: null })
    try {
      const status = await this.#deps.api.confirm({
        walletId,
        optionId: option.id,
        account: `${option.network.id}:${step.address}`,
        ...(this.#deps.session.sandbox ? { clientId: this.#deps.clientId() } : {}),
      })
      this.#apply(status)
    } catch (error) {
      // Back to where the buyer was; a payment that moved on meanwhile reaches the page through `follow`.
      this.#update({ step, notice: failureNotice(error) })
    }
  }

  readonly #actions: Actions = {
    // A wallet app opened by a link (spec 4.8) is navigated to in this frame: an app's host hands it to the OS.
    connect: (wallet: CheckoutWallet) =>
      wallet.link ? this.#deps.open(wallet.link) : void this.#loadOptions(wallet, this.#deps.newAddress()),
    connectBrowser: (wallet) => void this.#connectBrowser(wallet),
    retryOptions: () => {
      const step = this.#model.step
      if (step.name === 'choose') void this.#loadOptions(step.wallet, step.address)
    },
    select: (optionId: string) => {
      const step = this.#model.step
      if (step.name !== 'choose' || step.options.state !== 'ready') return
      this.#update({ step: { ...step, options: { ...step.options, selected: optionId } } }, false)
    },
    changeWallet: () => {
      this.#stepAbort?.abort()
      this.#update({ step: { name: 'connect' }, notice: null })
    },
    pay: () => {
      const step = this.#model.step
      const option = selectedOption(step)
      if (step.name !== 'choose' || !option) return
      this.#loadOutcome()
      const walletId = step.wallet.id
      if (walletId === 'browser') void this.#browser?.pay(step, option)
      else if (walletId !== 'sandbox_mobile' && walletId !== 'sandbox_phone' && walletId !== 'phone')
        void this.#paySandbox(step, walletId, option)
    },
    // The phone screen comes with its chunk (the QR code encoder is in it), loaded only when the buyer asks.
    payByPhone: () =>
      void import('./wallets/phone-wallet.ts').then(
        ({ showPhoneScreen }) => showPhoneScreen(this.#walletHost()),
        () => this.#update({ notice: { kind: 'walletLoadFailed' } }, false),
      ),
    expireNow: async () => {
      this.#loadOutcome()
      try {
        this.#apply(await this.#deps.api.expire())
      } catch (error) {
        this.#update({ notice: failureNotice(error) }, false)
      }
    },
  }
}
