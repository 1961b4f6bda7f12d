import type { CheckoutSession, CheckoutStatus, CheckoutWallet } from '@till/contract'
import { render } from 'lit-html'
import { GatewayError, type Gateway } from './api.ts'
import { postBridgeMessage } from './bridge.ts'
import { clockOffset, isFinalView, newer, viewKey, type Model, type Notice, type ViewKey } from './model.ts'
import type { Strings } from './strings.ts'
import { view } from './view.ts'

const LONG_POLL_MS = 25_000
const MAX_BACKOFF_MS = 15_000

export type ControllerDeps = {
  root: HTMLElement
  /** A live region outside the re-rendered part: what changed is announced there. */
  live: HTMLElement
  session: CheckoutSession
  api: Gateway
  t: Strings
  /** Where the page goes when the countdown ends; `location.replace` in the browser. */
  navigate(url: string): void
  newAddress(): string
  /** This browser's client id of the sandbox wallet app, kept across payments (the listing's Client-Id). */
  clientId(): string | undefined
}

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
      redirectAt: null,
      now,
    }
  }

  start() {
    this.#render(false)
    if (this.#model.status.isFinal) this.#end()
    else {
      this.#ticker = setInterval(() => this.#update({ now: Date.now() }), 1_000)
      void this.#follow()
    }
  }

  dispose() {
    this.#stop.abort()
    this.#stepAbort?.abort()
    clearInterval(this.#ticker)
  }

  #update(patch: Partial<Model>, focus = true) {
    this.#model = { ...this.#model, ...patch }
    this.#render(focus)
  }

  #render(focus: boolean) {
    const { root, t } = this.#deps
    render(view(this.#model, t, this.#actions), root)
    const key = viewKey(this.#model)
    if (key !== this.#shown) {
      const first = this.#shown === null
      this.#shown = key
      this.#announce(key)
      // Focus follows the screen, but not on first load: the buyer starts at the top, with the amount.
      if (focus && !first) root.querySelector<HTMLElement>('[data-focus]')?.focus()
    }
  }

  #announce(key: ViewKey) {
    const { t } = this.#deps
    const merchant = this.#model.session.merchant.name
    const text = isFinalView(key)
      ? `${t.final[key].heading}. ${this.#model.status.redirect ? t.returningIn(merchant, Math.ceil(this.#model.status.redirect.countdownMs / 1000)) : ''}`
      : key === 'processing'
        ? t.processingHeading
        : key === 'signing'
          ? t.signingHeading
          : ''
    if (text) this.#deps.live.textContent = text.trim()
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
    this.#stop.abort()
    this.#stepAbort?.abort()
    clearInterval(this.#ticker)
    const key = viewKey(this.#model)
    if (isFinalView(key)) postBridgeMessage(key === 'succeeded', this.#deps.t.final[key].heading)
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

  /** Long-polls the status until the payment is final, backing off while the service is unreachable. */
  async #follow() {
    const signal = this.#stop.signal
    let failures = 0
    while (!signal.aborted && !this.#model.status.isFinal) {
      try {
        const status = await this.#deps.api.status(this.#model.status.status, LONG_POLL_MS, signal)
        if (this.#model.notice?.kind === 'network') this.#update({ notice: null }, false)
        failures = 0
        this.#apply(status)
      } catch (error) {
        if (signal.aborted) return
        failures++
        const waitMs = Math.min(MAX_BACKOFF_MS, 500 * 2 ** failures)
        if (failures > 1) this.#update({ notice: { kind: 'network' } }, false)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, error instanceof GatewayError && error.status === 429 ? MAX_BACKOFF_MS : waitMs)
          signal.addEventListener(
            'abort',
            () => {
              clearTimeout(timer)
              resolve()
            },
            { once: true },
          )
        })
      }
    }
  }

  #failed(error: unknown): Notice {
    if (!(error instanceof GatewayError)) return { kind: 'unknown' }
    if (error.status === 0) return { kind: 'network' }
    if (error.status === 429) return { kind: 'rateLimited' }
    if (error.status === 409) return { kind: 'conflict' }
    return { kind: 'unknown' }
  }

  async #loadOptions(wallet: CheckoutWallet, address: string) {
    this.#stepAbort?.abort()
    const abort = new AbortController()
    this.#stepAbort = abort
    this.#update({ step: { name: 'choose', wallet, address, options: { state: 'loading' } }, notice: null })
    try {
      const { options } = await this.#deps.api.options(abort.signal)
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

  readonly #actions = {
    connect: (wallet: CheckoutWallet) => void this.#loadOptions(wallet, this.#deps.newAddress()),
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
    pay: async () => {
      const step = this.#model.step
      if (step.name !== 'choose' || step.options.state !== 'ready') return
      const { options, selected } = step.options
      const option = options.find((candidate) => candidate.id === selected)
      if (!option) return
      this.#update({ step: { name: 'signing', wallet: step.wallet, address: step.address, option }, notice: null })
      try {
        const status = await this.#deps.api.confirm({
          walletId: step.wallet.id,
          optionId: option.id,
          account: `${option.network.id}:${step.address}`,
          ...(this.#deps.session.sandbox ? { clientId: this.#deps.clientId() } : {}),
        })
        this.#apply(status)
      } catch (error) {
        // Back to where the buyer was; a payment that moved on meanwhile reaches the page through `follow`.
        this.#update({ step, notice: this.#failed(error) })
      }
    },
    expireNow: async () => {
      try {
        this.#apply(await this.#deps.api.expire())
      } catch (error) {
        this.#update({ notice: this.#failed(error) }, false)
      }
    },
  }
}
