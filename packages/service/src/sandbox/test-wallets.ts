import type { CheckoutWallet, SandboxWalletId } from '@till/contract'
import type { Clock } from '../core/clock.ts'
import type { PaymentRecord, PaymentService } from '../payments/index.ts'
import { quoted, submittedTransaction, type SandboxOption } from './chain-data.ts'
import { confirm, sandboxConfirmations } from './confirmations.ts'

/**
 * Test wallets, like test card numbers: each one always ends a payment the same way, through the same
 * lifecycle rule and transitions as everything else.
 */
export const TEST_WALLETS: readonly CheckoutWallet[] = [
  { id: 'sandbox_pays', name: 'Test Wallet: Pays' },
  { id: 'sandbox_declines', name: 'Test Wallet: Declines' },
  { id: 'sandbox_slow', name: 'Test Wallet: Slow' },
  { id: 'sandbox_never', name: 'Test Wallet: Never Confirms' },
  // Opened by a wallet link, as a phone's wallet app is (spec 4.8): the "app" then pays with a test wallet.
  { id: 'sandbox_mobile', name: 'Mobile wallet (sandbox)' },
  // Shows an option's payment request as a phone wallet scans it; the sandbox simulate call plays the wallet.
  { id: 'sandbox_phone', name: 'Phone wallet (sandbox)' },
]

const walletName = (id: SandboxWalletId): string => TEST_WALLETS.find((wallet) => wallet.id === id)?.name ?? id

export type TestWalletDeps = {
  payments: PaymentService
  clock: Clock
  /**
   * How long the slow wallet's transaction stays processing; 'held': until the sandbox confirm call
   * releases it, so a test decides when the network confirms instead of racing a timer.
   */
  slowConfirmMs: number | 'held'
}

/**
 * The buyer pays `payment` with `option` from test wallet `walletId` as `account` (CAIP-10 on the option's
 * network). Refused with 409 invalid_transition unless the payment is pending and within its deadline.
 */
export async function payWithTestWallet(
  deps: TestWalletDeps,
  input: {
    payment: PaymentRecord
    walletId: SandboxWalletId
    option: SandboxOption
    account: string
    /** The sandbox wallet app and the browser's client id: the payment is then listed to that client. */
    wallet?: { appId: string; clientId: string } | undefined
  },
): Promise<PaymentRecord> {
  const { payment, walletId, option, account, wallet } = input
  const quote = {
    currency: payment.currency,
    amountMinor: payment.amountMinor,
    walletName: walletName(walletId),
    option,
    buyerAccount: account,
  }
  if (walletId === 'sandbox_declines') {
    // The buyer saw the amount and refused to sign: no transaction exists, nothing was charged.
    return deps.payments.transition({ payment, to: 'failed', reason: 'buyer_declined', paid: { ...quoted(quote), wallet } })
  }
  // The submission and what follows it are one transaction: a crash between them must not leave the
  // payment processing with no confirmation ever to come.
  return deps.payments.atomically(async ({ transition, tx }) => {
    const submitted = await transition({
      payment,
      to: 'processing',
      reason: 'transaction_submitted',
      paid: { ...submittedTransaction(quote), wallet },
    })
    if (walletId === 'sandbox_pays') return confirm({ transition, clock: deps.clock }, submitted)
    if (walletId === 'sandbox_slow') {
      const { slowConfirmMs } = deps
      const dueAt = slowConfirmMs === 'held' ? null : new Date(deps.clock.now().getTime() + slowConfirmMs)
      await sandboxConfirmations(tx).schedule(payment.id, dueAt)
    }
    // sandbox_never: the transaction sits in the mempool for good; the payment stays processing.
    return submitted
  })
}
