// What the checkout controller works with, handed in by main.ts in the browser and by the tests: where it
// draws, the gateway, the words, and the browser's navigation, wallets and timers.
import type { Gateway } from './api.ts'
import type { PageSession } from './bootstrap.ts'
import type { Model } from './model.ts'
import type { Strings } from './strings.ts'
import type { Actions } from './view.ts'
import type { AnnouncedWallet } from './wallets/discovery.ts'

/** Where the page draws; lit-html in the browser, a recorder in tests. */
export type Screen = {
  /** Draws the model; `focus` moves focus to the new screen's heading. */
  show(model: Model, actions: Actions, focus: boolean): void
  /** Says what changed in a live region outside the drawn part. */
  announce(text: string): void
}

export type ControllerDeps = {
  screen: Screen
  session: PageSession
  api: Gateway
  t: Strings
  /** Where the page goes when the countdown ends; `location.replace` in the browser. */
  navigate(url: string): void
  /** Opens a wallet link in this frame; `location.assign` in the browser. */
  open(url: string): void
  newAddress(): string
  /** This browser's client id of the sandbox wallet app, kept across payments (the listing's Client-Id). */
  clientId(): string | undefined
  /** This browser's wallets, now and as more announce (`window.ethereum` as `fallbackName` if none); returns a stop. */
  discoverWallets(fallbackName: string, onChange: (wallets: AnnouncedWallet[]) => void): () => void
  /** Resolves after `ms` or when `signal` aborts; a real timer in the browser. */
  wait(ms: number, signal: AbortSignal): Promise<void>
}
