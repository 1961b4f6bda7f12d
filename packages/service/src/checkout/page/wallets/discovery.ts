// EIP-6963 wallet discovery. It is in the page's main bundle because the buyer has to see the wallets
// before choosing one; everything that talks to a wallet is in the wallet chunk, loaded on that choice.

/** EIP-1193: the one method every wallet provider has. */
export type Eip1193Provider = {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>
}

/** A wallet found in this browser, as the page shows it and as the payment's listing names it. */
export type AnnouncedWallet = {
  /** Per page load (EIP-6963); `window.ethereum` when the wallet was found the old way. */
  uuid: string
  name: string
  /** A data: URI, or null: nothing the page shows may be fetched from an address a wallet chose. */
  icon: string | null
  provider: Eip1193Provider
}

/** Where wallets are found: `window` in the page, any EventTarget in a test. */
export type WalletHost = Pick<EventTarget, 'addEventListener' | 'removeEventListener' | 'dispatchEvent'> & { ethereum?: unknown }

const ANNOUNCE = 'eip6963:announceProvider'
const REQUEST = 'eip6963:requestProvider'

const isProvider = (value: unknown): value is Eip1193Provider => typeof (value as Partial<Eip1193Provider> | null)?.request === 'function'

type Announcement = { info?: { uuid?: unknown; name?: unknown; icon?: unknown }; provider?: unknown }

/** An announcement's detail, checked: any script on the page may dispatch the event, with anything in it. */
export function announcedWallet(detail: unknown): AnnouncedWallet | null {
  const { info, provider } = (detail ?? {}) as Announcement
  const name = typeof info?.name === 'string' ? info.name.trim() : ''
  const uuid = info?.uuid
  if (typeof uuid !== 'string' || uuid === '' || name === '' || !isProvider(provider)) return null
  const icon = typeof info?.icon === 'string' && info.icon.startsWith('data:image/') ? info.icon : null
  return { uuid, name, icon, provider }
}

/**
 * Asks the browser's wallets to announce themselves and reports the list now and whenever another one
 * announces (an extension may load after the page). When none announces, a legacy injected
 * `window.ethereum` stands in under `fallbackName`. Returns the function that stops listening.
 */
/**
 * How the page tells a local chain's dev wallet (dev-wallet.ts, loaded only on such a page) from the
 * browser's own, to say what it does: it asks no approval.
 */
export const DEV_WALLET_UUID = 'till-dev-wallet'

export function discoverWallets(host: WalletHost, fallbackName: string, onChange: (wallets: AnnouncedWallet[]) => void): () => void {
  const announced = new Map<string, AnnouncedWallet>()

  const report = () => {
    if (announced.size > 0) return onChange([...announced.values()])
    const legacy = host.ethereum
    onChange(isProvider(legacy) ? [{ uuid: 'window.ethereum', name: fallbackName, icon: null, provider: legacy }] : [])
  }

  const onAnnounce = (event: Event) => {
    const wallet = announcedWallet((event as CustomEvent<unknown>).detail)
    // A wallet announces again whenever anyone asks: the same uuid is the same button.
    if (!wallet) return
    announced.set(wallet.uuid, wallet)
    report()
  }

  host.addEventListener(ANNOUNCE, onAnnounce)
  host.dispatchEvent(new Event(REQUEST))
  report()
  return () => host.removeEventListener(ANNOUNCE, onAnnounce)
}
