import { describe, expect, it } from 'vitest'
import { type Gateway, GatewayError } from '../api.ts'
import { devWallet } from './dev-wallet.ts'

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
    const wallet = devWallet(api, 'Local dev wallet')
    expect(wallet.name).toBe('Local dev wallet')
    expect(await wallet.provider.request({ method: 'eth_requestAccounts' })).toEqual(['0x70997970C51812dc3A010C7d01b50e0d17dc79C8'])
    await wallet.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] })
    expect(asked).toEqual([{ method: 'eth_requestAccounts' }, { method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] }])
  })

  it('turns a refusal into an EIP-1193 error the wallet code understands', async () => {
    const { api } = gatewayAnswering(() => {
      throw new GatewayError(400, 'params_validation', 'the Local dev wallet signs only an ERC-20 transfer(to, amount)')
    })
    await expect(devWallet(api, 'Local dev wallet').provider.request({ method: 'eth_sign' })).rejects.toMatchObject({
      code: 4200,
      message: 'the Local dev wallet signs only an ERC-20 transfer(to, amount)',
    })
  })
})
