import type { MerchantPaymentStatus } from '@till/contract'

/**
 * What the amount at the top of the page is, by the payment's status: due while it is pending, and once
 * it has left pending what became of it, in words a buyer reads right. The server paints the label of the
 * status the page is opened in (page-html.ts); the page's script changes it as the payment moves on, with
 * the outcome chunk, which carries these words (outcome.ts): the page's first script does not. A
 * translation adds an object here.
 */
export const amountLabels = {
  en: {
    pending: 'Amount due',
    processing: 'Amount being paid',
    succeeded: 'Amount paid',
    failed: 'Amount not charged',
    expired: 'Amount not paid',
    cancelled: 'Amount not charged',
  } satisfies Record<MerchantPaymentStatus, string>,
}

export type AmountLabels = (typeof amountLabels)['en']

/** The labels in the page's language, or English. */
export function amountLabelsFor(locale: string): AmountLabels {
  const byLocale: Record<string, AmountLabels> = amountLabels
  return byLocale[locale] ?? amountLabels.en
}
