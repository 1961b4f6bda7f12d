import { z } from 'zod'

/**
 * A wallet app registered with a partner: its id is the public `App-Id` header (spec 5). Public on
 * purpose, as a wallet app ships it; alone it opens nothing.
 */
export const AppId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, { error: 'must be 1 to 128 characters of A-Z, a-z, 0-9, _ and -' })
  .meta({ id: 'AppId', description: 'A wallet app registered with a partner (the App-Id header).' })

/** One installation or user of a wallet app (`Client-Id`): wallets use UUIDs, install ids or account-derived strings. */
export const WalletClientId = z
  .string()
  .regex(/^[A-Za-z0-9._:@+-]{1,128}$/, { error: 'must be 1 to 128 characters of A-Z, a-z, 0-9 and . _ : @ + -' })
  .meta({ id: 'WalletClientId', description: "A wallet app's client (the Client-Id header)." })

/** The wallet app and client a payment was paid through. */
export const PayingWallet = z
  .strictObject({ appId: AppId, clientId: WalletClientId })
  .meta({ id: 'PayingWallet', description: 'The wallet app and its client that paid; the payment is then listed to them.' })
export type PayingWallet = z.infer<typeof PayingWallet>
