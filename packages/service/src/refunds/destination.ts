import { checkEvmAccount } from '../evm/index.ts'

/** Where a refund is to go: a checksummed account on the refund's own network (a refund cannot cross chains). */
export const checkDestination = (account: string, network: string, field: string): string => checkEvmAccount(account, field, network)
