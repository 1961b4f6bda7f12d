// anvil's dev accounts: the keys of its default mnemonic, which it funds with ETH on every start.
import { mnemonicToAccount } from 'viem/accounts'

const MNEMONIC = 'test test test test test test test test test test test junk'
export const devAccount = (index: number) => mnemonicToAccount(MNEMONIC, { addressIndex: index })

/** The dev account that holds the USDC test token on the demo's chain: the checkout page's "Local dev wallet". */
export const DEV_WALLET_INDEX = 1
