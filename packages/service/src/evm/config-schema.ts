import { currencyByCode } from '@till/contract'
import { z } from 'zod'
import { networkName } from '../rails/index.ts'
import { DecimalRate } from './decimal.ts'
import { chainIdOf, Erc20AssetId, EvmNetworkId, normalizeAddress } from './ids.ts'
import { expecting, objectOf } from './issues.ts'

/**
 * The shape of the operator's EVM configuration, field by field; the rules across fields (duplicates, a
 * token on an unconfigured network, a rate for an unknown token) are in config-rules.ts.
 */

const isHttpUrl = (value: string): boolean => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)

const httpUrl = (example: string) =>
  z.string({ error: expecting(`an http(s) URL, e.g. ${example}`) }).refine(isHttpUrl, { error: `must be an http(s) URL, e.g. ${example}` })

// Token icons are shown on the hosted checkout page, which is served over HTTPS: an http image would be blocked.
const httpsUrl = (example: string) =>
  z
    .string({ error: expecting(`an https:// URL, e.g. ${example}`) })
    .refine((value) => URL.canParse(value) && new URL(value).protocol === 'https:', { error: `must be an https:// URL, e.g. ${example}` })

export const CurrencyCode = z
  .string({ error: expecting('an ISO 4217 currency code such as USD or EUR') })
  .refine((code) => currencyByCode(code) !== undefined, {
    error: (issue) => `${String(issue.input)} is not an ISO 4217 currency code; write an upper-case code such as USD or EUR`,
  })

const MAX_CONFIRMATIONS = 1_000
const MAX_DECIMALS = 36
// eth_getLogs ranges (issue 23): 1,000 blocks suits most providers; none allows more than 100,000.
const DEFAULT_LOG_RANGE = 1_000
const MAX_LOG_RANGE = 100_000

const NETWORK_FIELDS = ['id', 'name', 'rpcUrl', 'confirmations', 'maxLogRange', 'explorerTxUrl', 'devWallet']
const Network = z
  .strictObject(
    {
      id: EvmNetworkId,
      name: z
        .string({ error: expecting('the name shown to buyers, e.g. "Base"') })
        .trim()
        .min(1, { error: 'must not be empty; it is the name shown to buyers, e.g. "Base"' })
        .max(64, { error: 'must have at most 64 characters' })
        .optional(),
      rpcUrl: httpUrl('http://127.0.0.1:8545'),
      confirmations: z
        .int({ error: expecting(`a whole number of blocks from 1 to ${MAX_CONFIRMATIONS} before a payment counts, e.g. 3`) })
        .min(1, { error: 'must be at least 1 (1 counts a payment as soon as its block is mined)' })
        .max(MAX_CONFIRMATIONS, { error: `must be at most ${MAX_CONFIRMATIONS}` }),
      /**
       * The most blocks one eth_getLogs call may span when the chain watcher reads transfers. Providers cap
       * it anywhere from 10 to 10,000 blocks; a range the RPC still refuses is halved and asked again.
       */
      maxLogRange: z
        .int({
          error: expecting(
            `a whole number of blocks from 1 to ${MAX_LOG_RANGE}, e.g. 1000 (what your RPC provider allows per eth_getLogs)`,
          ),
        })
        .min(1, { error: 'must be at least 1 block' })
        .max(MAX_LOG_RANGE, { error: `must be at most ${MAX_LOG_RANGE} blocks` })
        .default(DEFAULT_LOG_RANGE),
      /** Where people look a transaction up (the dashboard's link): `{hash}` stands for the transaction's hash. */
      explorerTxUrl: z
        .string({ error: expecting('an https:// URL with {hash} where the hash goes, e.g. "https://basescan.org/tx/{hash}"') })
        .refine((value) => value.includes('{hash}') && isHttpUrl(value.replace('{hash}', '0x')), {
          error: 'must be an http(s) URL with {hash} where the hash goes, e.g. "https://basescan.org/tx/{hash}"',
        })
        .optional(),
      /** A dev account the node signs for (anvil's unlocked accounts): the checkout page's "Local dev wallet". */
      devWallet: z
        .string({
          error: expecting("the address of an account the node signs for, e.g. anvil's 0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
        })
        .transform((address, ctx) => {
          const normalized = normalizeAddress(address)
          if (normalized === undefined) {
            ctx.addIssue({
              code: 'custom',
              input: address,
              message: 'must be an address, 0x and 40 hex digits with a valid EIP-55 checksum',
            })
            return z.NEVER
          }
          return normalized
        })
        .optional(),
    },
    { error: objectOf('a network', NETWORK_FIELDS) },
  )
  .transform((network, ctx) => {
    // A chain Till knows by name needs none in the file; any other must be named, as buyers see the name.
    const name = network.name ?? networkName(network.id)
    if (name === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['name'],
        input: undefined,
        message: `is required for ${network.id}, which Till does not know by name; give the name buyers see, e.g. "My chain"`,
      })
      return z.NEVER
    }
    return {
      id: network.id,
      chainId: chainIdOf(network.id) ?? 0,
      name,
      rpcUrl: network.rpcUrl,
      confirmations: network.confirmations,
      maxLogRange: network.maxLogRange,
      explorerTxUrl: network.explorerTxUrl,
      devWallet: network.devWallet,
    }
  })

const TOKEN_FIELDS = ['id', 'symbol', 'name', 'decimals', 'iconUrl', 'peg']
const Token = z
  .strictObject(
    {
      id: Erc20AssetId,
      symbol: z
        .string({ error: expecting("the token's symbol, e.g. USDC") })
        .regex(/^\S{1,16}$/, { error: "must be the token's symbol, 1 to 16 characters without spaces, e.g. USDC" }),
      name: z
        .string({ error: expecting('the token\'s name, e.g. "USD Coin"') })
        .trim()
        .min(1, { error: 'must not be empty, e.g. "USD Coin"' })
        .max(64, { error: 'must have at most 64 characters' }),
      decimals: z
        .int({
          error: expecting(`a whole number from 0 to ${MAX_DECIMALS}: what the token contract's decimals() answers, e.g. 6 for USDC`),
        })
        .min(0, { error: `must be from 0 to ${MAX_DECIMALS}` })
        .max(MAX_DECIMALS, { error: `must be from 0 to ${MAX_DECIMALS}` }),
      iconUrl: httpsUrl('https://example.com/usdc.png').optional(),
      /** A stablecoin's currency: one token is then worth one unit of it, with no rate to configure. */
      peg: CurrencyCode.optional(),
    },
    { error: objectOf('a token', TOKEN_FIELDS) },
  )
  .transform(({ id, ...token }) => ({ ...id, ...token }))

/** Token units per one major unit of the currency: `{ from: 'EUR', to: 'USDC', rate: '1.0842' }` is 1 EUR = 1.0842 USDC. */
const RatePair = {
  from: CurrencyCode,
  to: z.string({ error: expecting('the symbol of a configured token, e.g. USDC') }).min(1, { error: 'must name a token, e.g. USDC' }),
  rate: DecimalRate,
}

const FixedRate = z.strictObject(RatePair, { error: objectOf('a rate', ['from', 'to', 'rate']) })

const Rates = z.strictObject(
  {
    fixed: z
      .array(FixedRate, { error: expecting('a list of rates such as [{ "from": "EUR", "to": "USDC", "rate": "1.0842" }]') })
      .default([]),
    endpoint: httpUrl('https://rates.example.com/v1/rates').optional(),
  },
  { error: objectOf('rates', ['fixed', 'endpoint']) },
)

export const EvmConfigFields = z.strictObject(
  {
    networks: z.array(Network, { error: expecting('a list of networks') }).min(1, {
      error: 'must list at least one network, e.g. { "id": "eip155:31337", "rpcUrl": "http://127.0.0.1:8545", "confirmations": 1 }',
    }),
    tokens: z.array(Token, { error: expecting('a list of tokens') }).min(1, { error: 'must list at least one token buyers may pay with' }),
    rates: Rates.default({ fixed: [] }),
    /**
     * Test networks for sandbox partners: with it, their payments are paid on these networks (instead of
     * with test wallets) and live partners' never are; without it, only live partners' payments are.
     */
    sandbox: z.boolean({ error: expecting("true for test networks that take sandbox partners' payments, else false") }).default(false),
  },
  { error: objectOf('the EVM configuration', ['networks', 'tokens', 'rates', 'sandbox']) },
)

export type EvmConfig = z.output<typeof EvmConfigFields>
export type EvmNetwork = EvmConfig['networks'][number]
export type EvmToken = EvmConfig['tokens'][number]
export type FixedRate = EvmConfig['rates']['fixed'][number]
