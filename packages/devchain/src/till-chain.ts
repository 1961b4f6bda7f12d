import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { getAddress } from 'viem'
import { type Anvil, startAnvil } from './anvil.ts'
import { DEV_WALLET_INDEX, devAccount } from './accounts.ts'
import { deployToken } from './token.ts'

export type TillLocalChain = {
  anvil: Anvil
  /** The USDC test token's contract. */
  usdc: `0x${string}`
  /** The dev account the checkout page's "Local dev wallet" signs with (anvil signs for it), holding USDC; the e2e's injected wallet uses it too. */
  devWallet: `0x${string}`
  /** Where the merchant receives: a CAIP-10 account for `settlementAddresses`. */
  merchantAccount: string
  /** The `till serve --config` file: a sandbox configuration of this chain. */
  configFile: string
  stop(): Promise<void>
}

const USDC_UNITS = 1_000_000n

/**
 * A local chain ready for Till: anvil, a USDC test token (6 decimals, pegged to USD, 1.0842 per EUR) with a
 * million of it in a dev wallet, and the configuration that offers it to sandbox partners (ADR 23).
 */
export async function startTillLocalChain(options: {
  /** Where the configuration file is written. */
  dir: string
  confirmations?: number
  blockTimeSeconds?: number
  port?: number
  /** Offer the "Local dev wallet" on the checkout page (the default); without it, only the browser's wallets. */
  devWallet?: boolean
}): Promise<TillLocalChain> {
  const anvil = await startAnvil({
    ...(options.blockTimeSeconds ? { blockTimeSeconds: options.blockTimeSeconds } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
  })
  try {
    const devWallet = devAccount(DEV_WALLET_INDEX).address
    const merchant = devAccount(2).address
    const usdc = getAddress(await deployToken(anvil.url, 'USD Coin (local)', 'USDC', [{ to: devWallet, amount: 1_000_000n * USDC_UNITS }]))
    const configFile = path.join(options.dir, 'till-local-chain.json')
    const config = {
      sandbox: true,
      networks: [
        {
          id: 'eip155:31337',
          name: 'Local chain',
          rpcUrl: anvil.url,
          confirmations: options.confirmations ?? 1,
          ...(options.devWallet === false ? {} : { devWallet }),
        },
      ],
      tokens: [{ id: `eip155:31337/erc20:${usdc}`, symbol: 'USDC', name: 'USD Coin (local)', decimals: 6, peg: 'USD' }],
      rates: {
        fixed: [
          { from: 'EUR', to: 'USDC', rate: '1.0842' },
          { from: 'GBP', to: 'USDC', rate: '1.2704' },
        ],
      },
    }
    await writeFile(configFile, `${JSON.stringify(config, null, 2)}\n`)
    return { anvil, usdc, devWallet, merchantAccount: `eip155:31337:${merchant}`, configFile, stop: () => anvil.stop() }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}
