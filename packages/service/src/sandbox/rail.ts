import {
  BROWSER_WALLET_ID,
  type CheckoutConfirmRequest,
  type PaymentOption,
  SANDBOX_MOBILE_WALLET_ID,
  sandboxWalletConnectUri,
} from '@till/contract'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../db/port.ts'
import type { Clock } from '../core/clock.ts'
import { fieldError } from '../errors.ts'
import type { PaymentRecord, PaymentService } from '../payments/index.ts'
import { optionView, partnerModes } from '../rails/index.ts'
import type { PaymentRail } from '../rails/index.ts'
import type { AccountStore } from '../accounts/index.ts'
import { SANDBOX_OPTIONS, type SandboxOption, sandboxOption, sandboxPaymentRequest, sandboxTokenValue } from './chain-data.ts'
import { sandboxConfirmations, sandboxConfirmer } from './confirmations.ts'
import { SANDBOX_APP_NAME } from './seed.ts'
import { payWithTestWallet, TEST_WALLETS } from './test-wallets.ts'

/** An option as the page lists it, with the payment request its "Phone wallet (sandbox)" shows. */
function paymentOption(payment: PaymentRecord, option: SandboxOption, settlementAddresses: readonly string[]): PaymentOption {
  const value = sandboxTokenValue(payment.currency, payment.amountMinor)
  return {
    ...optionView({
      id: option.id,
      network: { id: option.network.caip2, name: option.network.name },
      token: { ...option.token, id: option.token.caip19 },
      value,
    }),
    paymentRequest: sandboxPaymentRequest(option, value, settlementAddresses),
  }
}

/**
 * The sandbox rail: test wallets that always end a payment the same way, stablecoin options at fixed
 * rates, and simulated confirmations (docs/decisions/0010). It takes only sandbox partners' payments, and
 * only when the service runs with --sandbox.
 */
export function sandboxRail(deps: {
  db: Database
  payments: PaymentService
  accounts: AccountStore
  clock: Clock
  log: FastifyBaseLogger
  /** How long the slow test wallet's payments stay processing; 'held': until the sandbox confirm call. */
  slowConfirmMs: number | 'held'
  /** How often due confirmations are delivered; 0 leaves them to the sandbox confirm call. */
  confirmIntervalMs: number
}): PaymentRail {
  const partners = partnerModes(deps.accounts)
  const confirmer =
    deps.confirmIntervalMs > 0
      ? sandboxConfirmer({
          confirmations: sandboxConfirmations(deps.db),
          payments: deps.payments,
          clock: deps.clock,
          intervalMs: deps.confirmIntervalMs,
          log: deps.log,
        })
      : undefined

  return {
    sandbox: true,
    fixedSandboxRates: true,
    serves: (payment) => partners.isSandbox(payment.partnerId),
    wallets: () => TEST_WALLETS,
    walletConnectUri: (payment, walletId) =>
      walletId === SANDBOX_MOBILE_WALLET_ID ? sandboxWalletConnectUri({ paymentId: payment.id }) : undefined,
    async options(payment) {
      const settlementAddresses = (await deps.accounts.findMerchant(payment.merchantId))?.settlementAddresses ?? []
      return SANDBOX_OPTIONS.map((option) => paymentOption(payment, option, settlementAddresses))
    },
    async submit(payment, submission: CheckoutConfirmRequest) {
      if (submission.walletId === BROWSER_WALLET_ID) throw fieldError('walletId', 'a sandbox payment is paid with a test wallet')
      const option = sandboxOption(submission.optionId)
      if (!option) throw fieldError('optionId', 'not a payment option of this payment')
      if (!submission.account.startsWith(`${option.network.caip2}:`)) {
        throw fieldError('account', `must be an account on ${option.network.caip2}, the network of the option`)
      }
      // The test wallets pay as the sandbox's own wallet app: the payment is then listed to the browser's client.
      const app = submission.clientId ? await deps.accounts.findAppByName(payment.partnerId, SANDBOX_APP_NAME) : undefined
      const wallet = app && submission.clientId ? { appId: app.id, clientId: submission.clientId } : undefined
      return payWithTestWallet(deps, { payment, walletId: submission.walletId, option, account: submission.account, wallet })
    },
    async start() {
      confirmer?.start()
    },
    async stop() {
      await confirmer?.stop()
    },
  }
}
