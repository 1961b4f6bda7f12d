import { type Address, erc20Abi, type Hash, type Hex } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Anvil, chainClients, deployToken, devAccount, startAnvil } from '@till/devchain'
import { paymentReference } from './reference.ts'
import { checkTransfer, type TransferExpectation } from './verify.ts'

// A real local chain: every outcome is a transaction anvil mined (or did not).
let anvil: Anvil
let clients: ReturnType<typeof chainClients>
let usdc: Address
let other: Address
const buyer = devAccount(1)
const merchant = devAccount(2).address
const stranger = devAccount(3)
const price = 12_500_000n
const REFERENCE = paymentReference('pay_verify')

beforeAll(async () => {
  anvil = await startAnvil()
  clients = chainClients(anvil.url)
  const funded = [
    { to: buyer.address, amount: 1_000_000_000n },
    { to: stranger.address, amount: 1_000_000_000n },
  ]
  usdc = await deployToken(anvil.url, 'USD Coin', 'USDC', funded)
  other = await deployToken(anvil.url, 'Other Coin', 'OTHR', funded)
}, 60_000)
afterAll(() => anvil?.stop())

const expectation = (overrides: Partial<TransferExpectation> = {}): TransferExpectation => ({
  chainId: anvil.chainId,
  token: usdc,
  from: buyer.address,
  to: merchant,
  amount: price,
  reference: REFERENCE,
  ...overrides,
})

async function transfer(input: {
  token?: Address
  to?: Address
  amount?: bigint
  from?: typeof buyer
  gas?: bigint
  reference?: Hex | null
}): Promise<Hash> {
  return clients.wallet.writeContract({
    address: input.token ?? usdc,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [input.to ?? merchant, input.amount ?? price],
    account: input.from ?? buyer,
    ...(input.gas ? { gas: input.gas } : {}),
    ...(input.reference === null ? {} : { dataSuffix: input.reference ?? REFERENCE }),
  })
}

async function mined(hash: Hash): Promise<Hash> {
  await clients.public.waitForTransactionReceipt({ hash })
  return hash
}

describe('checkTransfer on a local chain', () => {
  it('accepts the exact transfer, and counts its confirmations as blocks come', async () => {
    const hash = await mined(await transfer({}))
    const first = await checkTransfer(clients.public, hash, expectation())
    expect(first).toMatchObject({ status: 'mined', confirmations: 1n })
    await clients.test.mine({ blocks: 2 })
    expect(await checkTransfer(clients.public, hash, expectation())).toMatchObject({ status: 'mined', confirmations: 3n })
  })

  it.each([
    ['a wrong amount', { amount: price - 1n }, 'amount', 'the transfer is of 12499999 units; the payment needs exactly 12500000'],
    ['a wrong recipient', { to: '0x000000000000000000000000000000000000dEaD' as Address }, 'recipient', 'not to the merchant'],
  ] as const)('refuses %s', async (_, change, mismatch, message) => {
    const hash = await mined(await transfer(change))
    expect(await checkTransfer(clients.public, hash, expectation())).toEqual({
      status: 'refused',
      mismatch,
      message: expect.stringContaining(message),
    })
  })

  it('refuses another token, another sender and another chain', async () => {
    const otherToken = await mined(await transfer({ token: other }))
    expect(await checkTransfer(clients.public, otherToken, expectation())).toMatchObject({ status: 'refused', mismatch: 'token' })
    const otherSender = await mined(await transfer({ from: stranger }))
    expect(await checkTransfer(clients.public, otherSender, expectation())).toMatchObject({ status: 'refused', mismatch: 'sender' })
    const hash = await mined(await transfer({}))
    expect(await checkTransfer(clients.public, hash, expectation({ chainId: 8453 }))).toMatchObject({
      status: 'refused',
      mismatch: 'chain',
    })
  })

  it("refuses a transfer that does not carry this payment's reference: another payment's, or none", async () => {
    // The same terms, another payment: a hash seen in a mempool cannot be claimed for it.
    const others = await mined(await transfer({ reference: paymentReference('pay_other') }))
    expect(await checkTransfer(clients.public, others, expectation())).toMatchObject({ status: 'refused', mismatch: 'reference' })
    const bare = await mined(await transfer({ reference: null }))
    expect(await checkTransfer(clients.public, bare, expectation())).toMatchObject({ status: 'refused', mismatch: 'reference' })
  })

  it('reports a transfer that reverted', async () => {
    const hash = await mined(await transfer({ amount: 10n ** 15n, gas: 100_000n }))
    expect(await checkTransfer(clients.public, hash, expectation({ amount: 10n ** 15n }))).toMatchObject({ status: 'reverted' })
  })

  it('reports a transfer still in the mempool as pending, and mined once a block comes', async () => {
    await clients.test.setAutomine(false)
    try {
      const hash = await transfer({})
      expect(await checkTransfer(clients.public, hash, expectation())).toMatchObject({ status: 'pending' })
      await clients.test.mine({ blocks: 1 })
      expect(await checkTransfer(clients.public, hash, expectation())).toMatchObject({ status: 'mined', confirmations: 1n })
    } finally {
      await clients.test.setAutomine(true)
    }
  })

  it('forgets a transfer that a reorganisation dropped, and knows nothing of a made-up hash', async () => {
    const snapshot = await clients.test.snapshot()
    const hash = await mined(await transfer({}))
    expect(await checkTransfer(clients.public, hash, expectation())).toMatchObject({ status: 'mined' })
    await clients.test.revert({ id: snapshot })
    expect(await checkTransfer(clients.public, hash, expectation())).toEqual({ status: 'unknown' })
    expect(await checkTransfer(clients.public, `0x${'ab'.repeat(32)}`, expectation())).toEqual({ status: 'unknown' })
  })
})
