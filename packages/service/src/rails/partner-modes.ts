import type { AccountStore } from '../accounts/index.ts'

/**
 * Whether a payment's partner is a sandbox partner, which decides its rail: test wallets or test networks
 * for sandbox partners, real networks for live ones. A partner's mode never changes, so each is read once.
 */
export function partnerModes(accounts: Pick<AccountStore, 'findPartner'>) {
  const known = new Map<string, boolean>()
  return {
    async isSandbox(partnerId: string): Promise<boolean> {
      let sandbox = known.get(partnerId)
      if (sandbox === undefined) {
        sandbox = (await accounts.findPartner(partnerId))?.sandbox === true
        if (known.size < 10_000) known.set(partnerId, sandbox)
      }
      return sandbox
    },
  }
}
