import type { PaymentOption } from '@till/contract'
import { optionView, paymentRequestUri } from '../rails/index.ts'
import { getAddress } from 'viem'
import type { Clock } from '../core/clock.ts'
import type { AccountStore } from '../accounts/index.ts'
import type { PaymentRecord } from '../payments/index.ts'
import type { EvmConfig, EvmNetwork, EvmToken } from './config.ts'
import { type Address, normalizeAddress } from './ids.ts'
import { quoteTokenAmount, rateFor } from './quote.ts'
import { amountRoom } from './amount-slots.ts'
import type { NewQuote, PaymentQuotes, StoredQuote } from './quotes.ts'
import { paymentReference, transferCall } from './reference.ts'
import type { EndpointRates } from './rate-endpoint.ts'

/** One way to pay one payment: a configured token, the merchant's address on its network, and the fixed quote. */
export type EvmOption = { id: string; network: EvmNetwork; token: EvmToken; quote: StoredQuote }

/** Stable and URL-safe, and the same for a token whatever payment it is offered for: `usdc-8453`. */
export const optionIdOf = (token: EvmToken, network: EvmNetwork): string =>
  `${token.symbol.toLowerCase().replace(/[^a-z0-9]+/g, '_')}-${network.chainId}`

/** The merchant's receiving address on `network`, from their CAIP-10 settlement accounts. */
function receivingAddress(accounts: readonly string[], network: string): Address | undefined {
  const account = accounts.find((candidate) => candidate.startsWith(`${network}:`))
  return account === undefined ? undefined : normalizeAddress(account.slice(network.length + 1))
}

/** An option as the page gets it; the gateway API adds the rate its amount works out to (api-routes.ts). */
export function toPaymentOption(payment: PaymentRecord, option: EvmOption): PaymentOption {
  const { network, token, quote } = option
  return {
    ...optionView({ id: option.id, network, token, value: quote.tokenMinor }),
    payTo: `${network.id}:${getAddress(quote.recipient)}`,
    transfer: { to: getAddress(token.address), data: transferCall(quote.recipient, quote.tokenMinor, paymentReference(payment.id)) },
    // Any wallet may pay an option whose exact amount names this payment alone: the watcher matches it by amount.
    ...(quote.uniqueAmount
      ? {
          paymentRequest: paymentRequestUri({
            token: getAddress(token.address),
            chainId: network.chainId,
            recipient: getAddress(quote.recipient),
            amount: quote.tokenMinor,
          }),
        }
      : {}),
  }
}

/**
 * The options of a payment: each configured token on a network where the merchant receives, priced in the
 * payment's currency. The first quote of each option is stored and kept (issue 14): what the page showed
 * is what Till checks on chain, whatever rates and addresses do later. An option whose token left the
 * configuration is no longer offered.
 */
export function evmOptions(deps: {
  config: EvmConfig
  accounts: AccountStore
  quotes: PaymentQuotes
  clock: Clock
  /** The endpoint's latest rates, when one is configured and answered. */
  endpointRates: () => Promise<EndpointRates | undefined>
}) {
  // Each configured token on its network: the options a payment can have.
  const offered = deps.config.tokens.flatMap((token) => {
    const network = deps.config.networks.find((candidate) => candidate.id === token.network)
    return network ? [{ id: optionIdOf(token, network), token, network }] : []
  })

  /** Quotes for options not quoted yet: the merchant, and maybe the rate endpoint, are asked only for them. */
  async function fresh(payment: PaymentRecord, unquoted: typeof offered): Promise<NewQuote[]> {
    const merchant = await deps.accounts.findMerchant(payment.merchantId)
    const accounts = merchant?.settlementAddresses ?? []
    const needsEndpoint = unquoted.some(({ token }) => rateFor(deps.config, payment.currency, token.symbol) === undefined)
    const endpoint = needsEndpoint ? await deps.endpointRates() : undefined
    return unquoted.flatMap(({ id, token, network }) => {
      const recipient = receivingAddress(accounts, token.network)
      const rate = rateFor(deps.config, payment.currency, token.symbol, endpoint)
      if (!recipient || !rate) return []
      const quote = quoteTokenAmount({ amountMinor: payment.amountMinor, currency: payment.currency, token, rate })
      // A price of nothing in a token's smallest unit cannot be paid by transfer.
      if (quote.tokenMinor === 0n) return []
      return [
        {
          optionId: id,
          network: network.id,
          token: token.id,
          tokenMinor: quote.tokenMinor,
          rate: quote.rate,
          rateSource: quote.source,
          rateAsOf: quote.asOf === null ? null : new Date(quote.asOf),
          recipient,
          room: amountRoom(token.decimals),
        },
      ]
    })
  }

  return {
    async of(payment: PaymentRecord): Promise<EvmOption[]> {
      // Every page load and submission asks: once each option is quoted, that is one read.
      let stored = await deps.quotes.read(payment.id)
      const quoted = new Set(stored.map((quote) => quote.optionId))
      const unquoted = offered.filter((option) => !quoted.has(option.id))
      if (payment.status === 'pending' && unquoted.length > 0) {
        stored = await deps.quotes.fix(payment, await fresh(payment, unquoted), deps.clock.now())
      }
      return stored.flatMap((quote) => {
        const option = offered.find((candidate) => candidate.token.id === quote.token && candidate.network.id === quote.network)
        return option ? [{ id: quote.optionId, network: option.network, token: option.token, quote }] : []
      })
    },
  }
}

export type EvmOptions = ReturnType<typeof evmOptions>
