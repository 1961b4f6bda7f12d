import { describe, expect, it } from 'vitest'
import type { Eip1193Provider } from './discovery.ts'
import { chainIdOf, requestAccount, sendTransaction, switchChain, WalletAnswerError, walletFailure } from './eip1193.ts'

const ACCOUNT = '0x52908400098527886E0F7030069857D2E4169EE7'
const HASH = `0x${'ab'.repeat(32)}`

/** A provider that answers each method from a table, and keeps what it was asked. */
function provider(answers: Record<string, (params: unknown) => unknown>) {
  const asked: { method: string; params?: unknown }[] = []
  const wallet: Eip1193Provider = {
    async request({ method, params }) {
      asked.push(params === undefined ? { method } : { method, params })
      const answer = answers[method]
      if (!answer) throw Object.assign(new Error('unsupported'), { code: 4200 })
      return answer(params)
    },
  }
  return { wallet, asked }
}

describe('walletFailure', () => {
  it('tells a refusal, an unknown chain and a request already open from anything else', () => {
    expect(walletFailure({ code: 4001, message: 'User rejected the request.' })).toBe('declined')
    expect(walletFailure({ code: 4902 })).toBe('unknownChain')
    expect(walletFailure({ code: -32002 })).toBe('busy')
    expect(walletFailure({ code: -32603, message: 'Internal error' })).toBe('failed')
    expect(walletFailure(new Error('boom'))).toBe('failed')
    expect(walletFailure(undefined)).toBe('failed')
  })

  it('reads the code a mobile wallet wraps inside its own error', () => {
    expect(walletFailure({ code: -32603, data: { originalError: { code: 4902 } } })).toBe('unknownChain')
  })
})

describe('the requests', () => {
  it('connects with the first account the wallet allows', async () => {
    const { wallet } = provider({ eth_requestAccounts: () => [ACCOUNT, '0x0000000000000000000000000000000000000001'] })
    expect(await requestAccount(wallet)).toBe(ACCOUNT)
  })

  it('refuses answers no wallet should give', async () => {
    await expect(requestAccount(provider({ eth_requestAccounts: () => [] }).wallet)).rejects.toBeInstanceOf(WalletAnswerError)
    await expect(chainIdOf(provider({ eth_chainId: () => 8453 }).wallet)).rejects.toBeInstanceOf(WalletAnswerError)
    const noHash = provider({ eth_sendTransaction: () => '0x1234' }).wallet
    await expect(sendTransaction(noHash, { chainId: 1, from: ACCOUNT, to: ACCOUNT, data: '0x' })).rejects.toBeInstanceOf(WalletAnswerError)
  })

  it('switches chain by its hex id and checks the wallet really did', async () => {
    let chain = '0x1'
    const { wallet, asked } = provider({
      wallet_switchEthereumChain: () => {
        chain = '0x2105'
        return null
      },
      eth_chainId: () => chain,
    })
    await switchChain(wallet, 8453)
    expect(asked[0]).toEqual({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x2105' }] })

    const stuck = provider({ wallet_switchEthereumChain: () => null, eth_chainId: () => '0x1' })
    await expect(switchChain(stuck.wallet, 8453)).rejects.toBeInstanceOf(WalletAnswerError)
  })

  it('sends a call that moves no ether, bound to its chain', async () => {
    const { wallet, asked } = provider({ eth_sendTransaction: () => HASH })
    expect(await sendTransaction(wallet, { chainId: 8453, from: ACCOUNT, to: ACCOUNT, data: '0xa9059cbb' })).toBe(HASH)
    expect(asked[0]?.params).toEqual([{ chainId: '0x2105', from: ACCOUNT, to: ACCOUNT, data: '0xa9059cbb', value: '0x0' }])
  })
})
