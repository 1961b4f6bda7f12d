import type { CheckoutConfirmRequest, CheckoutWallet, CheckoutWalletId, DevWalletRequest, PaymentOption } from '@till/contract'
import type { PaymentRecord } from '../payments/index.ts'

/**
 * A way for a buyer to pay (issue 14): what the checkout page offers for a payment, how a buyer's
 * submission is checked, and how confirmation is followed. The checkout page, its gateway API and the
 * lifecycle talk only to rails; which rails exist is decided in app.ts.
 */
export interface PaymentRail {
  /** Shown on the page: a sandbox rail gets the sandbox badge and its tools ("Expire now"). */
  readonly sandbox: boolean
  /** Pays on a local development chain only (the demo's `--chain local`): the page says "local test chain". */
  readonly localChain?: boolean
  /** Prices at the sandbox's fixed rates, not a market's: the page says so beside each rate. */
  readonly fixedSandboxRates?: boolean
  /** Whether this rail takes the payment (the sandbox rail: a sandbox partner's payment in sandbox mode). */
  serves(payment: PaymentRecord): Promise<boolean>
  /** The wallets the page offers the buyer. */
  wallets(payment: PaymentRecord): readonly CheckoutWallet[]
  /** The `wc:` URI that opens `walletId` as a wallet app, for the wallets opened by a link (spec 4.8). */
  walletConnectUri?: ((payment: PaymentRecord, walletId: CheckoutWalletId) => string | undefined) | undefined
  /** Each token on each network the payment can be paid with, and the exact amount of it. */
  options(payment: PaymentRecord): Promise<readonly PaymentOption[]>
  /**
   * Checks the buyer's submission and moves the payment as it says (processing, then what follows).
   * A submission that does not fit the payment is refused with a 400 naming the field; the payment stays.
   */
  submit(payment: PaymentRecord, submission: CheckoutConfirmRequest): Promise<PaymentRecord>
  /** Answers the page's Local dev wallet (EIP-1193), where the rail has one: a local chain's dev account. */
  devWallet?: ((payment: PaymentRecord, request: DevWalletRequest) => Promise<unknown>) | undefined
  /** Starts following confirmations, where the rail has any to follow; `stop` ends it. */
  start(): Promise<void>
  stop(): Promise<void>
}

/** The rails of this service: the first that takes a payment is its rail. */
export function paymentRails(rails: readonly PaymentRail[]) {
  return {
    async of(payment: PaymentRecord): Promise<PaymentRail | undefined> {
      for (const rail of rails) if (await rail.serves(payment)) return rail
      return undefined
    },
    async start(): Promise<void> {
      for (const rail of rails) await rail.start()
    },
    async stop(): Promise<void> {
      for (const rail of rails) await rail.stop()
    },
  }
}

export type PaymentRails = ReturnType<typeof paymentRails>
