/**
 * The words of the browser-wallet path once the buyer has picked a wallet. They ship with the wallet code
 * rather than in strings.ts because nothing shows them before that code is loaded, and the page's first
 * script stays lighter without them. A translation adds an object here as it does in strings.ts.
 */
export const walletWords = {
  en: {
    switchingHeading: 'Switch network in your wallet',
    switchingBody: (wallet: string, network: string) => `Approve switching ${wallet} to ${network}. Nothing is paid yet.`,

    signingForYou: 'The Local dev wallet signs and sends the transfer for you: there is nothing to approve.',

    submittedHeading: 'Waiting for the network to see your transaction',
    submittedBody: 'Your wallet sent the transaction. The network usually sees it within a few seconds; keep this page open.',

    stalledHeading: 'The network has not seen your transaction yet',
    stalledBody:
      'Look it up in your wallet. Once it shows as sent, check again here. Do not pay a second time while it is pending: it would pay twice.',
    checkAgain: 'Check again',
    backToOptions: 'Back to payment options',

    declined: 'You declined in your wallet; nothing was sent. You can try again.',
    walletBusy: 'Your wallet already has a request open. Answer it in your wallet, then try again.',
    walletFailed: 'Your wallet could not complete the request; nothing was sent. Try again, or use another wallet.',
    unknownChain: (network: string) => `Your wallet does not know the ${network} network. Add ${network} to your wallet, then try again.`,
    alreadyUsed: 'This transaction has already paid for something else, so it cannot pay this payment.',
    late: 'Your transfer arrived after this payment had ended. It is recorded, and the shop can refund it.',
    refused: (reason: string) => `This transaction cannot pay this payment: ${reason}.`,
  },
}

export type WalletWords = (typeof walletWords)['en']

/** The words in the page's language, or English when the wallet code has none in it. */
export function wordsFor(locale: string): WalletWords {
  const byLocale: Record<string, WalletWords> = walletWords
  return byLocale[locale] ?? walletWords.en
}
