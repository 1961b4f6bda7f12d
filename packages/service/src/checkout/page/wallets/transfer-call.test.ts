import type { PaymentOption } from '@till/contract'
import { describe, expect, it } from 'vitest'
import { transferCall, transferRequest } from './transfer-call.ts'

// Expected calldata produced by viem 2.57.1, `encodeFunctionData({ abi: erc20Abi, functionName: 'transfer',
// args })`, the encoder Till's server side uses; written out so the page's package does not depend on viem.
const VECTORS: [string, bigint, string][] = [
  [
    '0x52908400098527886E0F7030069857D2E4169EE7',
    12_500_000n,
    '0xa9059cbb00000000000000000000000052908400098527886e0f7030069857d2e4169ee70000000000000000000000000000000000000000000000000000000000bebc20',
  ],
  [
    '0x0000000000000000000000000000000000000000',
    0n,
    '0xa9059cbb00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000',
  ],
  [
    '0xde709f2102306220921060314715629080e2fb77',
    2n ** 256n - 1n,
    '0xa9059cbb000000000000000000000000de709f2102306220921060314715629080e2fb77ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
  ],
  [
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    10n ** 18n,
    '0xa9059cbb000000000000000000000000fb6916095ca1df60bb79ce92ce3ea74c37c5d3590000000000000000000000000000000000000000000000000de0b6b3a7640000',
  ],
]

describe('transferCall', () => {
  it.each(VECTORS)('encodes transfer(%s, %s) as viem does', (to, amount, calldata) => {
    expect(transferCall(to as `0x${string}`, amount)).toBe(calldata)
  })

  it('is 68 bytes: a selector and two words', () => {
    expect(transferCall('0x52908400098527886E0F7030069857D2E4169EE7', 1n)).toHaveLength(2 + 2 * (4 + 32 + 32))
  })

  it('refuses what would not fit its word rather than sign for something else', () => {
    expect(() => transferCall('0x52908400098527886E0F7030069857D2E4169EE7', -1n)).toThrow(RangeError)
    expect(() => transferCall('0x52908400098527886E0F7030069857D2E4169EE7', 2n ** 256n)).toThrow(RangeError)
    expect(() => transferCall('0x5290', 1n)).toThrow(RangeError)
  })
})

const USDC_BASE = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const MERCHANT = '0x52908400098527886E0F7030069857D2E4169EE7'

const option = (patch: Partial<PaymentOption> = {}): PaymentOption => ({
  id: 'usdc-base',
  network: { id: 'eip155:8453', name: 'Base' },
  tokenAmount: {
    unit: `caip19/eip155:8453/erc20:${USDC_BASE}`,
    value: '12500000',
    display: { assetSymbol: 'USDC', assetName: 'USD Coin', decimals: 6, networkName: 'Base' },
  },
  payTo: `eip155:8453:${MERCHANT}`,
  rate: '1 EUR = 1.0842 USDC',
  ...patch,
})

describe('transferRequest', () => {
  it('reads chain and token contract from the option, and encodes the transfer to its receiving account', () => {
    expect(transferRequest(option())).toEqual({ chainId: 8453, token: USDC_BASE, data: transferCall(MERCHANT, 12_500_000n) })
  })

  it('keeps amounts beyond a double exact', () => {
    const big = '123456789012345678901234567890'
    expect(transferRequest(option({ tokenAmount: { ...option().tokenAmount, value: big } })).data).toBe(transferCall(MERCHANT, BigInt(big)))
  })

  describe('when Till built the transaction, with the payment’s reference after the arguments', () => {
    const reference = 'c0ffee00'.repeat(4)
    const built = (to: string, data: string) => ({ ...option(), transfer: { to, data } })

    it('sends it as it is, once it checked it is the transfer the page shows', () => {
      const data = `${transferCall(MERCHANT, 12_500_000n)}${reference}`
      expect(transferRequest(built(USDC_BASE.toLowerCase(), data))).toEqual({ chainId: 8453, token: USDC_BASE, data })
    })

    it.each([
      ['to another contract', () => built(MERCHANT, `${transferCall(MERCHANT, 12_500_000n)}${reference}`)],
      ['to another recipient', () => built(USDC_BASE, `${transferCall(USDC_BASE, 12_500_000n)}${reference}`)],
      ['of another amount', () => built(USDC_BASE, `${transferCall(MERCHANT, 12_500_001n)}${reference}`)],
      ['with more than a reference after it', () => built(USDC_BASE, `${transferCall(MERCHANT, 12_500_000n)}${reference.repeat(3)}`)],
      ['cut short', () => built(USDC_BASE, transferCall(MERCHANT, 12_500_000n).slice(0, -2))],
    ])('refuses one %s', (_case, make) => {
      expect(() => transferRequest(make())).toThrow(RangeError)
    })
  })

  it.each([
    ['no receiving account', { payTo: undefined }],
    ['a receiving account on another chain', { payTo: `eip155:1:${MERCHANT}` }],
    ['a network other than the token’s', { network: { id: 'eip155:1', name: 'Ethereum' } }],
    ['a token that is not an ERC-20', { tokenAmount: { unit: 'caip19/eip155:8453/slip44:60', value: '1', display: null } }],
    ['an amount that is not an integer', { tokenAmount: { unit: `caip19/eip155:8453/erc20:${USDC_BASE}`, value: '12.5', display: null } }],
  ])('refuses an option with %s', (_case, patch) => {
    expect(() => transferRequest(option(patch))).toThrow(RangeError)
  })
})
