import type { CheckoutWalletId, FinalStatus } from '@till/contract'

/**
 * Every word the checkout page shows, server-rendered or not, in one place so a translation is one new
 * object of this shape, but for the words of the lazily loaded chunks, which ship with them (wallets/words.ts,
 * outcome.ts). English first; interpolated values are already formatted for the locale.
 */
export const en = {
  locale: 'en',
  // Above the sandbox's test wallets (a local chain has none: its badge says what it is).
  sandboxNote: 'Test mode: no real money moves. Each test wallet always ends the payment the same way.',

  expiresIn: (time: string) => `Expires in ${time}`,
  expiring: 'Expiring…',

  connectHeading: 'Connect a wallet',
  connectIntro: 'Choose the wallet you want to pay with.',
  noWallets: 'No wallet is available for this payment yet. Contact the shop to pay another way.',
  walletOutcome: {
    sandbox_pays: 'Signs, and the payment succeeds.',
    sandbox_declines: 'You decline to sign: the payment fails.',
    sandbox_slow: 'Processing for a few seconds, then succeeds.',
    sandbox_never: 'The transaction is sent but never confirms.',
    browser: 'Connect, then approve the payment in this wallet.',
    sandbox_mobile: 'Opens a wallet app by its link, as on a phone.',
    sandbox_phone: 'Shows a code to scan; the simulate call pays it.',
    phone: 'Shows a code to scan with the wallet app on your phone.',
  } satisfies Record<CheckoutWalletId, string>,
  devWalletOutcome: 'Signs for you with a funded test account.',
  noBrowserWallet:
    'No browser wallet found. To pay, install a wallet extension, or open this page in your wallet app’s browser, then reload.',
  connectingHeading: 'Check your wallet',
  connectingBody: (wallet: string) => `Approve the connection in ${wallet}.`,

  chooseHeading: 'Choose how to pay',
  connectedAs: (wallet: string, account: string) => `Connected: ${wallet}, ${account}`,
  optionsLoading: 'Loading payment options…',
  optionsLegend: 'Token and network',
  // A phone wallet pays only an option whose exact amount is unique to the payment; there may be none.
  noOptions: 'This wallet cannot pay this payment. Use another wallet.',
  onNetwork: (network: string) => `on ${network}`,
  rate: (rate: string) => `Rate: ${rate}`,
  payButton: (amount: string) => `Sign and pay ${amount}`,
  phoneButton: 'Pay from a phone wallet',
  changeWallet: 'Use another wallet',
  retry: 'Try again',

  signingHeading: 'Confirm in your wallet',
  signingBody: 'Approve the transaction in your wallet to pay.',

  processingHeading: 'Payment processing',
  transaction: 'Transaction',

  // The rest of the processing and final screens' words come with them, in the outcome chunk (outcome.ts).
  finalHeading: {
    succeeded: 'Payment successful',
    failed: 'Payment failed',
    expired: 'Payment expired',
    cancelled: 'Payment cancelled',
  } satisfies Record<FinalStatus, string>,
  returningIn: (merchant: string, seconds: number) => `Returning to ${merchant} in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,

  expireNow: 'Expire now (test mode)',
  expireNowHint: 'Ends this payment as if its time had run out.',

  // The words of the notices that follow a failed step once a wallet is picked are in outcome.ts.
  errors: {
    network: 'Could not reach the payment service. Check your connection; retrying…',
    unknown: 'Something went wrong. Try again.',
    walletLoadFailed: 'The wallet connection could not be loaded. Check your connection and try again.',
  },
}

export type Strings = typeof en

/**
 * Words the server renders, which the page's script never shows (the bundle does not import them, so they
 * cost it nothing): the page's first paint, and the pages served without the script: a payment not found, an
 * embedding the app got wrong, a wallet link opened in a browser (spec 4.8), and the service briefly away;
 * and the rate of a payment option, which the gateway API words (api-routes.ts) and the page shows as it is.
 */
export const serverPages = {
  title: (merchant: string, amount: string) => `Pay ${amount} to ${merchant}`,
  payTo: 'Pay to',
  sandboxBadge: 'Sandbox',
  localChainBadge: 'Local test chain',
  sandboxRate: (rate: string) => `${rate} (fixed sandbox rate)`,
  noScript: 'This checkout needs JavaScript to connect a wallet. Turn JavaScript on and reload the page.',
  notFoundTitle: 'Payment not found',
  notFoundBody: 'This checkout link is not valid. Go back to the shop and start the payment again.',
  integrationErrorTitle: 'This checkout cannot be embedded as given',
  integrationErrorBody:
    'The app that opened this page set its WebView parameters wrongly (spec 4.8), so the buyer could not come back from the wallet. Fix these parameters of the gatewayUrl:',
  walletLinkTitle: 'This link opens in a wallet app',
  walletLinkBody:
    'On a phone, this link opens the wallet app that pays the checkout. In a browser there is nothing to do here: go back to the checkout page and choose another wallet.',
  walletLinkBack: 'Back to the checkout page',
  walletLinkMissing: 'This is not a wallet link: it carries no wc: URI.',
  unavailableTitle: 'Checkout is briefly unavailable',
  unavailableBody: 'The payment service is restarting. This page tries again by itself in a few seconds.',
}
