// A browser wallet for the e2e suite: an EIP-1193 provider injected into the page and announced with
// EIP-6963, as an extension does. It forwards requests to the local chain (anvil signs for its dev
// accounts), so the page's own wallet code runs unchanged and moves real (local) tokens.
import type { Page } from '@playwright/test'

export interface InjectedWallet {
  /** The announced name: the page shows it as a button. */
  name: string
  /** The buyer's next signature request is refused, as a buyer pressing "Reject" in the wallet does. */
  rejectNextSignature(): void
  /** Every method the page asked the wallet, in order. */
  requests: string[]
}

type RpcAnswer = { result?: unknown; error?: { code: number; message: string } }

export async function injectWallet(
  page: Page,
  input: { rpcUrl: string; account: string; chainId: number; name: string },
): Promise<InjectedWallet> {
  const requests: string[] = []
  let rejectNext = false
  const chainIdHex = `0x${input.chainId.toString(16)}`

  await page.exposeFunction('__tillE2eWalletRequest', async (method: string, params: unknown[]): Promise<RpcAnswer> => {
    requests.push(method)
    switch (method) {
      case 'eth_requestAccounts':
      case 'eth_accounts':
        return { result: [input.account] }
      case 'wallet_switchEthereumChain': {
        const [target] = params as [{ chainId?: string }]
        return target?.chainId === chainIdHex ? { result: null } : { error: { code: 4902, message: 'Unrecognized chain ID.' } }
      }
      case 'eth_sendTransaction':
        if (rejectNext) {
          rejectNext = false
          return { error: { code: 4001, message: 'User rejected the request.' } }
        }
        break
    }
    const response = await fetch(input.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: requests.length, method, params }),
    })
    const answer = (await response.json()) as RpcAnswer
    return answer.error ? { error: answer.error } : { result: answer.result }
  })

  await page.addInitScript((name: string) => {
    type Forward = (method: string, params: unknown[]) => Promise<RpcAnswer>
    const forward = (window as unknown as { __tillE2eWalletRequest: Forward }).__tillE2eWalletRequest
    const provider = {
      async request({ method, params = [] }: { method: string; params?: unknown[] }) {
        const answer = await forward(method, params)
        if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
        return answer.result
      },
      on() {},
      removeListener() {},
    }
    const icon =
      'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"%3E%3Crect width="1" height="1"/%3E%3C/svg%3E'
    const detail = Object.freeze({ info: Object.freeze({ uuid: crypto.randomUUID(), name, icon, rdns: 'dev.till.e2e' }), provider })
    const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
    window.addEventListener('eip6963:requestProvider', announce)
    announce()
  }, input.name)

  return {
    name: input.name,
    rejectNextSignature: () => {
      rejectNext = true
    },
    requests,
  }
}
