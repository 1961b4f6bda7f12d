import type { Gateway } from '../api.ts'
// Types only: this module is a chunk of its own, and a value shared with the page's script would be split
// into a third file the script loads up front (page-build.ts's checkSplit).
import type { Eip1193Provider, WalletHost } from './discovery.ts'

// What a wallet answers when it cannot do what was asked (EIP-1193): the wallet code reads only `code`.
const UNSUPPORTED = 4200
// EIP-6963's event names, fixed by the standard (discovery.ts listens for them).
const ANNOUNCE = 'eip6963:announceProvider'
const REQUEST = 'eip6963:requestProvider'

/**
 * The "Local dev wallet" of a local development chain: an EIP-1193 provider whose requests Till answers with
 * a dev account the chain's node signs for. It pays a payment on the local chain with no extension installed
 * (the demo's `--chain local`).
 */
export function devWalletProvider(api: Gateway): Eip1193Provider {
  return {
    async request({ method, params }) {
      try {
        return (await api.devWallet({ method, ...(Array.isArray(params) ? { params } : {}) })).result
      } catch (error) {
        throw Object.assign(new Error(error instanceof Error ? error.message : String(error)), { code: UNSUPPORTED })
      }
    },
  }
}

/**
 * Announces the dev wallet the way a browser's wallets announce themselves (EIP-6963): now, and whenever
 * the page asks again, so the page's discovery finds it beside them whichever comes first. `uuid` is
 * discovery.ts's DEV_WALLET_UUID, by which the page tells it from the browser's own.
 */
export function announceDevWallet(host: WalletHost, api: Gateway, name: string, uuid: string): void {
  const detail = Object.freeze({ info: { uuid, name, icon: '' }, provider: devWalletProvider(api) })
  const announce = () => host.dispatchEvent(new CustomEvent(ANNOUNCE, { detail }))
  host.addEventListener(REQUEST, announce)
  announce()
}
