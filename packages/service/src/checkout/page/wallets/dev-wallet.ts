import type { Gateway } from '../api.ts'
import type { AnnouncedWallet } from './discovery.ts'

// What a wallet answers when it cannot do what was asked (EIP-1193): the wallet code reads only `code`.
const UNSUPPORTED = 4200

/**
 * The "Local dev wallet" of a local development chain, announced beside the browser's own wallets: an
 * EIP-1193 provider whose requests Till answers with a dev account the chain's node signs for. It pays a
 * payment on the local chain with no extension installed (the demo's `--chain local`).
 */
/** How the page tells the dev wallet from the browser's own, to say what it does (it asks no approval). */
export const DEV_WALLET_UUID = 'till-dev-wallet'

export function devWallet(api: Gateway, name: string): AnnouncedWallet {
  return {
    uuid: DEV_WALLET_UUID,
    name,
    icon: null,
    provider: {
      async request({ method, params }) {
        try {
          return (await api.devWallet({ method, ...(Array.isArray(params) ? { params } : {}) })).result
        } catch (error) {
          throw Object.assign(new Error(error instanceof Error ? error.message : String(error)), { code: UNSUPPORTED })
        }
      },
    },
  }
}
