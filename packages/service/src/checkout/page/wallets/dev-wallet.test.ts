import { describe, expect, it } from 'vitest'
import { type Gateway, GatewayError } from '../api.ts'
import { announceDevWallet, devWalletProvider } from './dev-wallet.ts'
import { type AnnouncedWallet, DEV_WALLET_UUID, discoverWallets } from './discovery.ts'

function gatewayAnswering(answer: (request: { method: string; params?: unknown[] }) => unknown) {
  const asked: { method: string; params?: unknown[] }[] = []
  const api = {
    devWallet: async (request: { method: string; params?: unknown[] }) => {
      asked.push(request)
      return { result: answer(request) }
    },
  } as Pick<Gateway, 'devWallet'> as Gateway
  return { api, asked }
}

describe('the Local dev wallet', () => {
  it('passes EIP-1193 requests to Till and answers with its result', async () => {
    const { api, asked } = gatewayAnswering(({ method }) =>
      method === 'eth_requestAccounts' ? ['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'] : null,
    )
    const provider = devWalletProvider(api)
    expect(await provider.request({ method: 'eth_requestAccounts' })).toEqual(['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'])
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] })
    expect(asked).toEqual([{ method: 'eth_requestAccounts' }, { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] }])
  })

  it('turns a refusal into an EIP-1193 error the wallet code understands', async () => {
    const { api } = gatewayAnswering(() => {
      throw new GatewayError(400, 'params_validation', 'the Local dev wallet signs only an ERC-20 transfer(to, amount)')
    })
    await expect(devWalletProvider(api).request({ method: 'eth_sign' })).rejects.toMatchObject({
      code: 4200,
      message: 'the Local dev wallet signs only an ERC-20 transfer(to, amount)',
    })
  })

  // Its code loads after the page's discovery may have started, or before: it is found either way.
  it.each(['after', 'before'] as const)('is found beside the browser’s wallets when it loads %s discovery starts', (when) => {
    const { api } = gatewayAnswering(() => null)
    const host = new EventTarget()
    const seen: AnnouncedWallet[][] = []
    if (when === 'before') announceDevWallet(host, api, 'Local dev wallet', DEV_WALLET_UUID)
    const stop = discoverWallets(host, 'Browser wallet', (wallets) => seen.push(wallets))
    if (when === 'after') announceDevWallet(host, api, 'Local dev wallet', DEV_WALLET_UUID)
    stop()
    expect(seen.at(-1)?.map(({ uuid, name }) => ({ uuid, name }))).toEqual([{ uuid: DEV_WALLET_UUID, name: 'Local dev wallet' }])
  })
})
