import { type Anvil, chainClients, deployToken, devAccount, startAnvil } from '@till/devchain'
import { type Address, concat, erc20Abi, type Hash, type Hex } from 'viem'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect } from 'vitest'
import type { Database } from '../src/db/port.ts'
import type { Clock } from '../src/core/clock.ts'
import { evmChains } from '../src/evm/chains.ts'
import { type EvmConfig, parseEvmConfig } from '../src/evm/config.ts'
import { evmFollower } from '../src/evm/follower.ts'
import type { EvmTiming } from '../src/evm/rail.ts'
import { type ChainObserver, evmWatcher } from '../src/evm/watcher.ts'
import { paymentReference, transferCall } from '../src/evm/reference.ts'
import { paymentService } from '../src/payments/service.ts'
import { accountStore } from '../src/accounts/store.ts'
import { createCheckoutPayment, gatewayCall } from './checkout-fixtures.ts'
import { type Account, silentLog } from './fixtures.ts'

/** The dev accounts of a rail test: who pays, who receives, and someone else. */
export const BUYER = devAccount(1)
export const MERCHANT = devAccount(2).address
export const STRANGER = devAccount(3)

/** Checks happen only when a test runs the follower; a missing transaction is given up after 10 minutes. */
export const HAND_TIMING: EvmTiming = { intervalMs: 0, recheckMs: 0, dropAfterMs: 10 * 60_000, watchIntervalMs: 0 }

export type LocalChain = {
  anvil: Anvil
  clients: ReturnType<typeof chainClients>
  usdc: Address
  other: Address
  config: EvmConfig
}

/**
 * A local chain for the file: anvil with USDC (pegged to USD, 1.0842 per EUR) and another token that is
 * not configured, both funded to the buyer. `confirmations` is the network's requirement.
 */
export function useLocalChain(confirmations: number): LocalChain {
  const chain = {} as LocalChain
  beforeAll(async () => {
    chain.anvil = await startAnvil()
    chain.clients = chainClients(chain.anvil.url)
    const funded = [{ to: BUYER.address, amount: 1_000_000_000n }]
    chain.usdc = await deployToken(chain.anvil.url, 'USD Coin', 'USDC', funded)
    chain.other = await deployToken(chain.anvil.url, 'Other Coin', 'OTHR', funded)
    chain.config = parseEvmConfig(
      {
        networks: [{ id: 'eip155:31337', rpcUrl: chain.anvil.url, confirmations }],
        tokens: [{ id: `eip155:31337/erc20:${chain.usdc}`, symbol: 'USDC', name: 'USD Coin', decimals: 6, peg: 'USD' }],
        rates: { fixed: [{ from: 'EUR', to: 'USDC', rate: '1.0842' }] },
      },
      'test',
    )
  }, 60_000)
  afterAll(() => chain.anvil?.stop())
  return chain
}

/** The merchant receives on the local chain. */
export async function receiveOnLocalChain(db: Database, account: { partnerId: string; merchantId: string }, address = MERCHANT) {
  await accountStore(db).updateMerchant({
    partnerId: account.partnerId,
    merchantId: account.merchantId,
    changes: { settlementAddresses: [`eip155:31337:${address}`] },
    now: new Date(),
  })
}

/** Another instance's follower over the same database: tests decide when it checks. */
export function handFollower(db: Database, clock: Clock, config: EvmConfig, timing: EvmTiming = HAND_TIMING, observe?: ChainObserver) {
  const payments = paymentService({ db, clock, policy: { paymentTtlSeconds: 900, allowLoopbackRedirects: false } })
  return evmFollower({ db, payments, chains: evmChains(config), clock, log: silentLog, timing, ...(observe ? { observe } : {}) })
}

/** Another instance's chain watcher over the same database: tests decide when it reads the chain. */
export function handWatcher(db: Database, clock: Clock, config: EvmConfig, hooks: { claimed?: () => void; observe?: ChainObserver } = {}) {
  const payments = paymentService({ db, clock, policy: { paymentTtlSeconds: 900, allowLoopbackRedirects: false } })
  return evmWatcher({
    db,
    payments,
    chains: evmChains(config),
    config,
    clock,
    log: silentLog,
    timing: { watchIntervalMs: 0 },
    claimed: hooks.claimed ?? (() => {}),
    ...(hooks.observe ? { observe: hooks.observe } : {}),
  })
}

/**
 * A wallet that cannot append data sends a bare ERC-20 transfer (a phone wallet paying an EIP-681 request);
 * resolves with its hash once anvil has mined it.
 */
export async function plainTransfer(chain: LocalChain, input: { amount: bigint; to?: Address; from?: typeof BUYER }): Promise<Hash> {
  const hash = await chain.clients.wallet.writeContract({
    address: chain.usdc,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [input.to ?? MERCHANT, input.amount],
    account: input.from ?? BUYER,
  })
  await chain.clients.public.waitForTransactionReceipt({ hash })
  return hash
}

/** The buyer's wallet signs an ERC-20 transfer; resolves with its hash once anvil has mined it. */
export async function transfer(
  chain: LocalChain,
  input: {
    paymentId: string
    to?: Address
    amount: bigint
    token?: Address
    from?: typeof BUYER
    gas?: bigint
    /** What the wallet appends after the reference, e.g. an ERC-8021 attribution suffix. */
    suffix?: Hex
  },
): Promise<Hash> {
  const hash = await chain.clients.wallet.writeContract({
    address: input.token ?? chain.usdc,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [input.to ?? MERCHANT, input.amount],
    account: input.from ?? BUYER,
    ...(input.gas ? { gas: input.gas } : {}),
    dataSuffix: input.suffix ? concat([paymentReference(input.paymentId), input.suffix]) : paymentReference(input.paymentId),
  })
  await chain.clients.public.waitForTransactionReceipt({ hash })
  return hash
}

/** A transfer signed but not sent: a reorg test sends the same bytes again after the chain forgot them. */
export async function signedTransfer(chain: LocalChain, input: { paymentId: string; amount: bigint }): Promise<`0x${string}`> {
  const request = await chain.clients.wallet.prepareTransactionRequest({
    account: BUYER,
    to: chain.usdc,
    data: transferCall(MERCHANT, input.amount, paymentReference(input.paymentId)),
  })
  return chain.clients.wallet.signTransaction(request)
}

/**
 * A buyer pays 19.99 EUR in USDC on the local chain and the checkout page hands Till the hash: the payment
 * is processing, its transaction followed. Its id, and the exact amount it was quoted and paid.
 */
export async function payOnLocalChain(
  app: FastifyInstance,
  chain: LocalChain,
  account: Account,
): Promise<{ paymentId: string; amount: bigint }> {
  const created = await createCheckoutPayment(app, account, { amount: { unit: 'iso4217/EUR', value: '1999' } })
  const answer = await gatewayCall(app, created, '/options')
  const amount = BigInt((answer.json() as { options: { tokenAmount: { value: string } }[] }).options[0]?.tokenAmount.value ?? '0')
  const hash = await transfer(chain, { paymentId: created.paymentId, amount })
  const submitted = await gatewayCall(app, created, '/confirm', {
    method: 'POST',
    payload: { walletId: 'browser', optionId: 'usdc-31337', account: `eip155:31337:${BUYER.address}`, transactionHash: hash },
  })
  expect(submitted.json()).toMatchObject({ status: 'processing' })
  return { paymentId: created.paymentId, amount }
}
