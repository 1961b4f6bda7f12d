import { z } from 'zod'
import { WalletClientId } from './wallet-app.ts'
import { Caip10, Caip2 } from './caip.ts'
import { FiatAmount, TokenAmount } from './money.ts'
import { MerchantPaymentStatus, refineIsFinal } from './status.ts'

// The gateway API: what the hosted checkout page (spec section 4.7) and nothing else talks to. Every call
// is scoped to one payment by its path and by the checkout token the page was served with. It carries no
// API key and returns only what the buyer may see: no referenceId, no partner, no fees or settlement, and
// the merchant's return URL only once the payment has ended.

/** The header that carries the checkout token the page was served with. */
export const CHECKOUT_TOKEN_HEADER = 'Checkout-Token'

/** Spec section 8.1: the redirect countdown lasts 3 seconds. */
export const REDIRECT_COUNTDOWN_MS = 3_000

/** The longest a status long-poll is held open before it answers "unchanged". */
export const CHECKOUT_LONG_POLL_MAX_MS = 25_000

export const SandboxWalletId = z.enum(['sandbox_pays', 'sandbox_declines', 'sandbox_slow', 'sandbox_never']).meta({
  id: 'SandboxWalletId',
  description:
    'Sandbox test wallets, one per outcome like test card numbers: pays (succeeds), declines (the buyer refuses to sign: failed), slow (processing for a while, then succeeds), never (submits a transaction that never confirms).',
})
export type SandboxWalletId = z.infer<typeof SandboxWalletId>

/** The buyer's own wallet, found in the browser (EIP-6963, else `window.ethereum`): the page signs with it. */
export const BROWSER_WALLET_ID = 'browser'

/** The sandbox's mobile wallet: opened by a wallet link (spec 4.8), it pays when the "wallet app" says so. */
export const SANDBOX_MOBILE_WALLET_ID = 'sandbox_mobile'

/**
 * The sandbox's phone wallet: the page shows an option's payment request (`PaymentOption.paymentRequest`) as
 * a phone wallet would scan it, and nothing on the page pays it; the sandbox simulate call plays the wallet.
 */
export const SANDBOX_PHONE_WALLET_ID = 'sandbox_phone'

/**
 * Any wallet app on the buyer's phone, on a real (or local) chain: the page shows the chosen option's
 * payment request as a QR code and a link, and Till's chain watcher finds the transfer by its exact amount.
 */
export const PHONE_WALLET_ID = 'phone'

export const CheckoutWalletId = z
  .enum([...SandboxWalletId.options, SANDBOX_MOBILE_WALLET_ID, SANDBOX_PHONE_WALLET_ID, BROWSER_WALLET_ID, PHONE_WALLET_ID])
  .meta({
    id: 'CheckoutWalletId',
    description: `A sandbox test wallet, the sandbox's mobile wallet (\`${SANDBOX_MOBILE_WALLET_ID}\`, opened by a wallet link), its phone wallet (\`${SANDBOX_PHONE_WALLET_ID}\`: the page shows the option's payment request, which the sandbox simulate call pays), \`${BROWSER_WALLET_ID}\`: whichever wallet the buyer's browser offers, on a real (or local) chain, or \`${PHONE_WALLET_ID}\`: a wallet app on the buyer's phone, paying the payment request it scans.`,
  })
export type CheckoutWalletId = z.infer<typeof CheckoutWalletId>

/** A transaction hash as EVM wallets return it: 0x and 64 hex digits. */
export const TransactionHash = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/, { error: 'must be a transaction hash, 0x and 64 hex digits' })
  .meta({ id: 'TransactionHash', example: '0x5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060' })

export const CheckoutWallet = z
  .object({
    id: CheckoutWalletId,
    /** The wallet's own name, as wallets present themselves; what each one does is the page's wording. */
    name: z.string(),
    /**
     * Only on a local development chain: the dev account Till's "Local dev wallet" signs with, through the
     * gateway API's dev-wallet call, so the demo pays with real (local) tokens and no browser extension.
     */
    devAccount: Caip10.optional(),
    /**
     * A wallet app opened by a link: a URL whose `uri` query parameter starts with `wc:`. The page navigates
     * to it in the same frame (spec 4.8): a native host hands it to the OS, a browser shows what it is.
     */
    link: z.string().optional(),
  })
  .meta({ id: 'CheckoutWallet', description: 'A wallet the buyer can connect on this checkout page.' })
export type CheckoutWallet = z.infer<typeof CheckoutWallet>

export const PaymentOption = z
  .object({
    id: z.string().min(1).max(64),
    network: z.object({ id: Caip2, name: z.string() }),
    /** The exact amount of the token the buyer signs for; `display` is always present here. */
    tokenAmount: TokenAmount,
    /** The merchant's receiving account on the option's network: the transfer goes there, straight to the merchant. */
    payTo: Caip10.optional(),
    /**
     * The rate the amount works out to, fixed for the payment's lifetime, as the page shows it: "1 EUR =
     * 1.0842 USDC", worked out exactly from the payment's amount and `tokenAmount`, rounded for display only.
     */
    rate: z.string().optional(),
    /**
     * The transaction the buyer's wallet sends, built by Till: to the token contract, calldata
     * `transfer(payTo, amount)` followed by the payment's 16-byte reference, which binds the transfer to
     * this payment. The page passes it to the wallet as is.
     */
    transfer: z
      .object({
        to: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
        data: z.string().regex(/^0x(?:[0-9a-fA-F]{2})+$/),
      })
      .optional(),
    /**
     * An EIP-681 payment request any wallet can pay, e.g. a phone wallet scanning it as a QR code:
     * `ethereum:<token>@<chainId>/transfer?address=<payTo>&uint256=<exact amount>`. Present only when the
     * option's exact amount is unique to this payment at `payTo` (Till then finds the transfer on chain by
     * its amount, as it cannot carry the reference); otherwise only a browser wallet can pay the option.
     */
    paymentRequest: z
      .string()
      .regex(/^ethereum:0x[0-9a-fA-F]{40}@\d+\/transfer\?address=0x[0-9a-fA-F]{40}&uint256=\d+$/)
      .optional(),
  })
  .meta({ id: 'PaymentOption', description: 'A token on a network the buyer can pay with, and how much of it.' })
export type PaymentOption = z.infer<typeof PaymentOption>

export const PaymentOptionsResponse = z
  .object({ options: z.array(PaymentOption) })
  .meta({ id: 'PaymentOptionsResponse', description: 'The payment options of one payment.' })
export type PaymentOptionsResponse = z.infer<typeof PaymentOptionsResponse>

export const CheckoutRedirect = z
  .object({
    /** The merchant's successUrl or errorUrl with `payment_id` set, from the server's record. */
    url: z.string(),
    countdownMs: z.int().min(0),
  })
  .meta({ id: 'CheckoutRedirect', description: 'Where the page sends the buyer once the payment has ended.' })
export type CheckoutRedirect = z.infer<typeof CheckoutRedirect>

export const CheckoutPaid = z
  .object({
    account: Caip10,
    walletName: z.string().nullable(),
    network: z.object({ id: Caip2, name: z.string() }),
    transactionHash: z.string().nullable(),
    tokenAmount: TokenAmount.nullable(),
  })
  .meta({ id: 'CheckoutPaid', description: "The buyer's own side of the payment, once they have signed or declined." })
export type CheckoutPaid = z.infer<typeof CheckoutPaid>

export const CheckoutStatus = z
  .object({
    status: MerchantPaymentStatus,
    isFinal: z.boolean(),
    /** ISO 8601; a pending payment expires then. */
    expiresAt: z.iso.datetime(),
    /** ISO 8601, the server's clock when it answered, so the page can count down without trusting its own. */
    serverTime: z.iso.datetime(),
    /** Present only when the payment has ended and redirecting is enabled for it (spec 4.2, 4.7). */
    redirect: CheckoutRedirect.nullable(),
    paid: CheckoutPaid.nullable(),
  })
  .superRefine(refineIsFinal)
  .superRefine((value, ctx) => {
    if (value.redirect && !value.isFinal) {
      ctx.addIssue({ code: 'custom', path: ['redirect'], input: value.redirect, message: 'only a final payment redirects' })
    }
  })
  .meta({ id: 'CheckoutStatus', description: 'The state of one payment as its checkout page shows it.' })
export type CheckoutStatus = z.infer<typeof CheckoutStatus>

export const CheckoutSession = z
  .object({
    paymentId: z.string(),
    merchant: z.object({ name: z.string(), iconUrl: z.string().nullable() }),
    amount: FiatAmount,
    sandbox: z.boolean(),
    /**
     * Set when the payment is paid on a local development chain (a chain on Till's own machine, such as the
     * demo's `--chain local`): real tokens move, but only there. The page then speaks of a local test chain,
     * not of the sandbox and its test wallets.
     */
    localChain: z.boolean().optional(),
    wallets: z.array(CheckoutWallet),
    state: CheckoutStatus,
  })
  .meta({ id: 'CheckoutSession', description: 'Everything the checkout page shows for one payment.' })
export type CheckoutSession = z.infer<typeof CheckoutSession>

const confirmFields = {
  optionId: z.string().min(1).max(64),
  /** The connected account on the option's network; its chain must be the option's. */
  account: Caip10,
}

const SandboxConfirmRequest = z
  .object({
    walletId: SandboxWalletId,
    ...confirmFields,
    /** The browser's own client id of the sandbox wallet app, kept in its storage. */
    clientId: WalletClientId.optional(),
  })
  .strict()
  .meta({ id: 'SandboxConfirmRequest', description: 'A sandbox test wallet pays: it signs nothing real.' })

const BrowserWalletConfirmRequest = z
  .object({
    walletId: z.literal(BROWSER_WALLET_ID),
    ...confirmFields,
    /**
     * The hash of the ERC-20 transfer the buyer signed. Only a claim: Till reads the transaction from the
     * chain and checks its token, sender, recipient and amount against the option before it counts.
     */
    transactionHash: TransactionHash,
    /** The wallet's name as it announced itself (EIP-6963), shown in the listing as the buyer's provider. */
    walletName: z.string().trim().min(1).max(64).optional(),
  })
  .strict()
  .meta({ id: 'BrowserWalletConfirmRequest', description: "The buyer signed a transfer in their browser's wallet." })

export const CheckoutConfirmRequest = z
  .discriminatedUnion('walletId', [SandboxConfirmRequest, BrowserWalletConfirmRequest])
  .meta({ id: 'CheckoutConfirmRequest', description: 'The buyer signs: pay this payment with this option from this wallet.' })
export type CheckoutConfirmRequest = z.infer<typeof CheckoutConfirmRequest>
export type SandboxConfirmRequest = z.infer<typeof SandboxConfirmRequest>
export type BrowserWalletConfirmRequest = z.infer<typeof BrowserWalletConfirmRequest>

/** One EIP-1193 request of the page's Local dev wallet, answered by Till from the local chain. */
export const DevWalletRequest = z
  .object({ method: z.string().min(1).max(64), params: z.array(z.unknown()).max(4).optional() })
  .strict()
  .meta({ id: 'DevWalletRequest', description: "An EIP-1193 request to the local chain's dev wallet (sandbox only)." })
export type DevWalletRequest = z.infer<typeof DevWalletRequest>

export const CheckoutStatusQuery = z
  .object({
    /** The status the page already shows: the answer waits until the payment is in another one. */
    after: MerchantPaymentStatus.optional(),
    waitMs: z.coerce.number().int().min(0).max(CHECKOUT_LONG_POLL_MAX_MS).optional(),
  })
  .strict()
  .meta({ id: 'CheckoutStatusQuery', description: 'Long-poll parameters of the checkout status endpoint.' })
export type CheckoutStatusQuery = z.infer<typeof CheckoutStatusQuery>
