import type { z } from 'zod'
import type { EvmConfig } from './config-schema.ts'

const DEV_CHAIN_IDS = new Set([31337, 1337])
const isLoopback = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)

/** A local development chain: a dev chain id, on this machine (the demo's `--chain local`). */
export const isLocalChain = (network: { chainId: number; rpcUrl: string }): boolean =>
  DEV_CHAIN_IDS.has(network.chainId) && isLoopback(network.rpcUrl)

/**
 * The rules across fields of the EVM configuration, each reported on the field to change. Together they
 * make a rate lookup unambiguous: one network per id, one token per symbol on a network, one peg per
 * symbol, and at most one fixed rate per pair; and they keep a dev wallet to a local sandbox chain.
 */
export function checkEvmConfig(config: EvmConfig, ctx: z.RefinementCtx<EvmConfig>): void {
  const problem = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message })

  const networks = new Map<string, number>()
  config.networks.forEach((network, index) => {
    const first = networks.get(network.id)
    if (first === undefined) networks.set(network.id, index)
    else problem(['networks', index, 'id'], `${network.id} is already networks[${first}]; list each network once`)
  })
  const configured = [...networks.keys()].join(', ')

  // A dev wallet signs with a key the node holds: only a local development chain has one, and only sandbox
  // partners may pay on it.
  config.networks.forEach((network, index) => {
    if (network.devWallet === undefined) return
    if (!DEV_CHAIN_IDS.has(network.chainId)) {
      problem(['networks', index, 'devWallet'], `is only for a local development chain (eip155:31337 or eip155:1337), not ${network.id}`)
    } else if (!isLoopback(network.rpcUrl)) {
      problem(
        ['networks', index, 'devWallet'],
        `is only for a chain on this machine: its rpcUrl must be on 127.0.0.1 or localhost, not ${network.rpcUrl}`,
      )
    } else if (!config.sandbox) {
      problem(
        ['networks', index, 'devWallet'],
        'needs "sandbox": true at the top level: a dev wallet pays only sandbox partners\' payments',
      )
    }
  })

  const tokens = new Map<string, number>()
  const symbols = new Map<string, number>()
  const pegs = new Map<string, { peg: string | undefined; index: number }>()
  config.tokens.forEach((token, index) => {
    if (!networks.has(token.network)) {
      problem(
        ['tokens', index, 'id'],
        `its network ${token.network} is not under networks; add it there or correct the chain id (configured: ${configured})`,
      )
    }
    const sameToken = tokens.get(token.id)
    if (sameToken === undefined) tokens.set(token.id, index)
    else problem(['tokens', index, 'id'], `is the same token as tokens[${sameToken}]; list each token once`)

    const symbolKey = `${token.network} ${token.symbol}`
    const sameSymbol = symbols.get(symbolKey)
    if (sameSymbol === undefined) symbols.set(symbolKey, index)
    else if (sameToken === undefined) {
      problem(
        ['tokens', index, 'symbol'],
        `tokens[${sameSymbol}] is already ${token.symbol} on ${token.network}; a symbol names one token per network`,
      )
    }

    // Rates name tokens by symbol, so USDC on two networks must agree on what one USDC is worth.
    const firstPeg = pegs.get(token.symbol)
    if (firstPeg === undefined) pegs.set(token.symbol, { peg: token.peg, index })
    else if (firstPeg.peg !== token.peg) {
      const other = firstPeg.peg === undefined ? 'not pegged' : `pegged to ${firstPeg.peg}`
      problem(['tokens', index, 'peg'], `${token.symbol} is ${other} in tokens[${firstPeg.index}]; give every ${token.symbol} the same peg`)
    }
  })

  const known = [...pegs.keys()].join(', ')
  const pairs = new Map<string, number>()
  config.rates.fixed.forEach((rate, index) => {
    const token = pegs.get(rate.to)
    if (token === undefined) {
      problem(['rates', 'fixed', index, 'to'], `no token has the symbol ${rate.to}; use one of ${known}, or list the token under tokens`)
    } else if (token.peg === rate.from) {
      problem(['rates', 'fixed', index], `${rate.to} is pegged to ${rate.from} (1:1); remove this rate or the token's peg`)
    }
    const pair = `${rate.from} ${rate.to}`
    const first = pairs.get(pair)
    if (first === undefined) pairs.set(pair, index)
    else problem(['rates', 'fixed', index], `${rate.from} to ${rate.to} is already rates.fixed[${first}]; give each pair one rate`)
  })
}
