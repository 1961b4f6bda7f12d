import { render } from 'lit-html'
import { gateway } from './api.ts'
import type { Bootstrap } from './bootstrap.ts'
import { CheckoutController } from './controller.ts'
import type { Screen } from './controller-ports.ts'
import { en } from './strings.ts'
import { view } from './view.ts'
import { wait } from './wait.ts'
import { DEV_WALLET_UUID, discoverWallets } from './wallets/discovery.ts'

function randomAddress(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20))
  return `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
}

const CLIENT_ID_KEY = 'till.sandbox.clientId'

/**
 * The test wallets pay as the sandbox wallet app, with one client id per browser: the same browser's
 * payments then list together under App-Id + Client-Id. Storage may be blocked; the id then lasts the page.
 */
function sandboxClientId(): string {
  try {
    const kept = localStorage.getItem(CLIENT_ID_KEY)
    // The shape of the contract's WalletClientId, written out: the page does not bundle zod.
    if (kept && /^[A-Za-z0-9._:@+-]{1,128}$/.test(kept)) return kept
    const made = crypto.randomUUID()
    localStorage.setItem(CLIENT_ID_KEY, made)
    return made
  } catch {
    return crypto.randomUUID()
  }
}

function litScreen(root: HTMLElement, live: HTMLElement, label: HTMLElement | null): Screen {
  return {
    show(model, actions, focus) {
      render(view(model, en, actions), root)
      // The amount above the app says what it is now: due, being paid, paid (the outcome chunk has the words).
      if (label && model.outcome) label.textContent = model.outcome.amountLabel[model.status.status]
      if (focus) root.querySelector<HTMLElement>('[data-focus]')?.focus()
    },
    announce(text) {
      live.textContent = text
    },
  }
}

const data = document.getElementById('checkout-data')
const root = document.getElementById('checkout-app')
const live = document.getElementById('checkout-live')
if (data && root && live) {
  const { token, session } = JSON.parse(data.textContent ?? '') as Bootstrap
  root.textContent = ''
  const api = gateway({ paymentId: session.paymentId, token })
  const dev = session.wallets.find((wallet) => wallet.devAccount)
  // A local chain's dev wallet: its code is loaded on such a page only, and announces itself as the
  // browser's wallets do. Not loaded (the network): the page says no wallet was found, and to reload.
  if (dev)
    import('./wallets/dev-wallet.ts').then(
      (module) => module.announceDevWallet(window, api, dev.name, DEV_WALLET_UUID),
      () => {},
    )
  new CheckoutController({
    screen: litScreen(root, live, document.getElementById('checkout-amount-label')),
    session,
    api,
    t: en,
    navigate: (url) => location.replace(url),
    open: (url) => location.assign(url),
    newAddress: randomAddress,
    clientId: sandboxClientId,
    discoverWallets: (fallbackName, onChange) => discoverWallets(window, fallbackName, onChange),
    wait,
  }).start()
}
