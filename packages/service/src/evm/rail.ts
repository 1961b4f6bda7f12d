import { BROWSER_WALLET_ID, type BrowserWalletConfirmRequest, type CheckoutWallet, PHONE_WALLET_ID } from '@till/contract'
import type { FastifyBaseLogger } from 'fastify'
import { getAddress, type Hash, type PublicClient } from 'viem'
import type { Database } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { ApiError, fieldError } from '../errors.ts'
import type { PaymentRecord, PaymentService } from '../payments/index.ts'
import { partnerModes } from '../rails/index.ts'
import type { PaymentRail } from '../rails/index.ts'
import type { AccountStore } from '../accounts/index.ts'
import { checkChainIds, evmChains } from './chains.ts'
import { ConfigError, type EvmConfig } from './config.ts'
import { isLocalChain } from './config-rules.ts'
import { devWallet } from './dev-wallet.ts'
import { endedReason } from './transfer-match.ts'
import { evmFollower, type FollowerTiming } from './follower.ts'
import { type Address, normalizeAddress } from './ids.ts'
import { type EvmOption, evmOptions, toPaymentOption } from './options.ts'
import { paymentQuotes } from './quotes.ts'
import { cachedEndpointRates } from './rate-endpoint.ts'
import { evmTransfers, type Transfer } from './transfers.ts'
import { paymentReference } from './reference.ts'
import { unappliedTransfers } from './unapplied.ts'
import { checkTransfer } from './verify.ts'
import { claimTransfer, endedMeanwhile } from './claim.ts'
import { type ChainObserver, evmWatcher, type WatcherTiming } from './watcher.ts'

const BROWSER_WALLET: CheckoutWallet = { id: BROWSER_WALLET_ID, name: 'Browser wallet' }
// Any wallet app on the buyer's phone: it pays the option's payment request, which the watcher then finds.
const PHONE_WALLET: CheckoutWallet = { id: PHONE_WALLET_ID, name: 'Phone wallet' }
export const DEV_WALLET_NAME = 'Local dev wallet'

export type EvmRailDeps = {
  db: Database
  payments: PaymentService
  accounts: AccountStore
  clock: Clock
  log: FastifyBaseLogger
  config: EvmConfig
  timing: EvmTiming
  observe?: ChainObserver
}

/** How often the rail's jobs run: the follower's checks and the watcher's reads. */
export type EvmTiming = FollowerTiming & WatcherTiming

/**
 * Real payments on EVM chains (issue 14, ADR 23): the buyer's own wallet signs an ERC-20 transfer straight
 * to the merchant; the page hands Till the hash, or the chain watcher finds the transfer (issue 23), and
 * Till believes only what the network's RPC says of it.
 */
export function evmRail(deps: EvmRailDeps) {
  const chains = evmChains(deps.config)
  const options = evmOptions({
    config: deps.config,
    accounts: deps.accounts,
    quotes: paymentQuotes(deps.db),
    clock: deps.clock,
    endpointRates: cachedEndpointRates({
      endpoint: deps.config.rates.endpoint,
      now: () => deps.clock.now().getTime(),
      onFailure: (error) => deps.log.warn({ err: error }, 'the rate endpoint failed'),
    }),
  })
  const follower = evmFollower({
    db: deps.db,
    payments: deps.payments,
    chains,
    clock: deps.clock,
    log: deps.log,
    timing: deps.timing,
    ...(deps.observe ? { observe: deps.observe } : {}),
  })
  const watcher = evmWatcher({ ...deps, chains, claimed: follower.nudge })

  /** Asks the option's network; an RPC that fails or times out is a 502 the buyer can retry. */
  async function ask<T>(option: EvmOption, work: (client: PublicClient) => Promise<T>): Promise<T> {
    try {
      return await work(chains.client(option.network.id))
    } catch (error) {
      deps.log.warn({ err: error, network: option.network.id }, 'the network could not be asked about a transaction')
      throw new ApiError('bad_gateway', `${option.network.name} could not be asked about this transaction; submit it again in a moment.`)
    }
  }

  const check = (payment: PaymentRecord, option: EvmOption, from: Address, hash: Hash) =>
    ask(option, (client) =>
      checkTransfer(client, hash, {
        chainId: option.network.chainId,
        token: option.token.address,
        from,
        to: option.quote.recipient,
        amount: option.quote.tokenMinor,
        reference: paymentReference(payment.id),
      }),
    )

  /** The other configured network that has the transaction, if one does: the buyer paid on the wrong chain. */
  async function networkHolding(hash: Hash, option: EvmOption) {
    for (const network of deps.config.networks) {
      if (network.id === option.network.id) continue
      const found = await chains
        .client(network.id)
        .getTransaction({ hash })
        .then(() => true)
        .catch(() => false)
      if (found) return network
    }
    return undefined
  }

  /**
   * A transfer that checked out but came after its payment ended: recorded as unapplied, for the merchant to
   * refund. The answer stays a 409 either way; `details.late` is what the checkout page reads.
   */
  async function recordLate(payment: PaymentRecord, transfer: Transfer): Promise<never> {
    // Read after the deadline has been applied: a payment past it reads as expired, even before the sweeper.
    const { status } = (await deps.payments.readForCheckout(payment.id)) ?? payment
    const reason = endedReason(status)
    const recorded = await unappliedTransfers(deps.db).record(
      { ...transfer, paymentId: payment.id, logIndex: null, reason },
      deps.clock.now(),
    )
    if (!recorded) throw new ApiError('transaction_already_used', 'This transaction was already submitted; it pays nothing more.')
    deps.log.warn({ paymentId: payment.id, txHash: transfer.txHash, reason }, 'a transfer arrived after its payment ended')
    throw new ApiError(
      'invalid_transition',
      `Payment ${payment.id} is ${status}, so this transfer cannot pay it. It is recorded as an unapplied transfer for the merchant to refund.`,
      { details: { status, late: true, reason } },
    )
  }

  /** A posted hash that is already bound: the payment it paid when that is this one, else a 409. */
  async function alreadyBound(payment: PaymentRecord, network: string, hash: Hash): Promise<PaymentRecord> {
    if ((await evmTransfers(deps.db).boundTo(network, hash)) === payment.id)
      return (await deps.payments.readForCheckout(payment.id)) ?? payment
    throw new ApiError('transaction_already_used', 'This transaction was already submitted; a transaction pays one payment only.')
  }

  async function submit(payment: PaymentRecord, submission: BrowserWalletConfirmRequest): Promise<PaymentRecord> {
    const option = (await options.of(payment)).find((candidate) => candidate.id === submission.optionId)
    if (!option) throw fieldError('optionId', 'not a payment option of this payment')
    const prefix = `${option.network.id}:`
    const from = submission.account.startsWith(prefix) ? normalizeAddress(submission.account.slice(prefix.length)) : undefined
    if (!from) throw fieldError('account', `must be an account on ${option.network.id}, the network of the option`)

    const hash = submission.transactionHash.toLowerCase() as Hash
    const checked = await check(payment, option, from, hash)
    if (checked.status === 'unknown') {
      const elsewhere = await networkHolding(hash, option)
      if (elsewhere) {
        throw fieldError(
          'transactionHash',
          `the transaction is on ${elsewhere.name} (${elsewhere.id}), not on ${option.network.name}, the network of the option`,
        )
      }
      throw new ApiError(
        'transaction_not_found',
        `${option.network.name} does not know transaction ${hash} yet; submit it again in a few seconds.`,
      )
    }
    if (checked.status === 'refused') throw fieldError('transactionHash', checked.message)
    // A replacement of this transaction (a wallet's "speed up") can only be mined after this height.
    const fromBlock =
      checked.status === 'pending' ? await ask(option, (client) => client.getBlockNumber({ cacheTime: 0 })) : checked.blockNumber

    const now = deps.clock.now()
    const transfer: Transfer = {
      network: option.network.id,
      txHash: hash,
      paymentId: payment.id,
      merchantId: payment.merchantId,
      sender: from,
      recipient: option.quote.recipient,
      token: option.token.address,
      amount: option.quote.tokenMinor,
      blockNumber: checked.status === 'pending' ? null : checked.blockNumber,
      matchedBy: 'reference',
    }
    // The watcher may have found this very transfer first: the page's post then reads the payment it paid.
    const alreadyPaid = () => alreadyBound(payment, option.network.id, hash)
    if (await evmTransfers(deps.db).boundTo(option.network.id, hash)) return alreadyPaid()
    if (payment.status !== 'pending' || payment.expiresAt <= now) return recordLate(payment, transfer)
    let moved: PaymentRecord | 'bound'
    try {
      const claim = { payment, network: option.network, token: option.token, nonce: checked.nonce, fromBlock, now }
      moved = await claimTransfer(deps.payments, { ...claim, transfer, walletName: submission.walletName ?? null, seenBy: 'page' })
    } catch (error) {
      // Expired or paid by another transaction meanwhile: this one is unapplied.
      if (endedMeanwhile(error)) return recordLate(payment, transfer)
      throw error
    }
    if (moved === 'bound') return alreadyPaid()
    follower.nudge()
    return moved
  }

  const partners = partnerModes(deps.accounts)
  const answerDevWallet = devWallet(deps.config)
  const devWallets: CheckoutWallet[] = deps.config.networks.flatMap((network) =>
    network.devWallet
      ? [{ id: BROWSER_WALLET_ID, name: DEV_WALLET_NAME, devAccount: `${network.id}:${getAddress(network.devWallet)}` }]
      : [],
  )

  const rail: PaymentRail = {
    // Test networks take sandbox partners' payments, real ones live partners': never the other way round.
    sandbox: deps.config.sandbox,
    localChain: deps.config.networks.length > 0 && deps.config.networks.every(isLocalChain),
    serves: async (payment) => (await partners.isSandbox(payment.partnerId)) === deps.config.sandbox,
    wallets: () => [BROWSER_WALLET, PHONE_WALLET, ...devWallets],
    devWallet: answerDevWallet
      ? async (payment, request) => {
          const calls =
            payment.status === 'pending'
              ? (await rail.options(payment)).flatMap((option) => (option.transfer ? [option.transfer] : []))
              : []
          return answerDevWallet(request, calls)
        }
      : undefined,
    async options(payment) {
      return (await options.of(payment)).map((option) => toPaymentOption(payment, option))
    },
    async submit(payment, submission) {
      if (submission.walletId !== BROWSER_WALLET_ID) throw fieldError('walletId', 'this payment is paid from a browser wallet')
      return submit(payment, submission)
    },
    async start() {
      const { wrong, unreachable } = await checkChainIds(chains, deps.config.networks)
      for (const line of unreachable) deps.log.warn(`EVM network unreachable at start: ${line}`)
      if (wrong.length > 0)
        throw new ConfigError(
          'the EVM configuration',
          wrong.map((message) => ({ path: '', message })),
        )
      follower.start()
      watcher.start()
    },
    async stop() {
      await watcher.stop()
      await follower.stop()
    },
  }
  return rail
}
