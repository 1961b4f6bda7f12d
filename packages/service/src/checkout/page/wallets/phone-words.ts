/**
 * The words of the phone-wallet screen (phone-wallet.ts), the way a buyer pays from a wallet app by a payment
 * request. They ship with that screen's chunk rather than in strings.ts or words.ts because nothing shows them
 * before it is loaded: strings.ts is on every buyer's critical path, and words.ts is the browser-wallet
 * chunk's (a module both chunks imported would become a third file). A translation adds an object here.
 */
export const phoneWords = {
  en: {
    phoneHeading: 'Pay from a phone wallet',
    phoneIntro: 'Scan the code with the wallet app on your phone, or open the request in a wallet app on this device.',
    qrLabel: 'QR code of the payment request',
    openInApp: 'Open in a wallet app',
    sendTo: 'Send to',
    amount: 'Amount',
    smallestUnit: (units: string) => `Exactly ${units} in the token’s smallest unit`,
    copyAddress: 'Copy address',
    copyAmount: 'Copy amount',
    addressCopied: 'Address copied',
    amountCopied: 'Amount copied',
    copyFailed: 'Could not copy. Select the text and copy it yourself.',
    uniqueAmount:
      'The last digits of the amount are unique to this payment: they are how Till recognises your transfer. Send exactly this amount, in one transfer.',
    followed:
      'This page moves on by itself once the network sees your transfer. Closing it changes nothing: Till finds the transfer and tells the shop.',
    sandboxWarning: 'Test mode: do not pay this with a real wallet. A test pays it with the sandbox simulate call.',
    otherWays: 'Back to other ways to pay',
  },
}

export type PhoneWords = (typeof phoneWords)['en']

/** The words in the page's language, or English when the phone screen has none in it. */
export function phoneWordsFor(locale: string): PhoneWords {
  const byLocale: Record<string, PhoneWords> = phoneWords
  return byLocale[locale] ?? phoneWords.en
}
