import { checkEvmAccount } from '../evm/index.ts'

/** Refuses a receiving account that is not an EVM account with an EIP-55 checksummed address (evm checkEvmAccount). */
export function checkSettlementAddresses(accounts: readonly string[]): string[] {
  return accounts.map((account, index) => checkEvmAccount(account, `settlementAddresses[${index}]`))
}
