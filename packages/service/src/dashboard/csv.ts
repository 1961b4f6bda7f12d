import type { Payment } from '@till/contract'

/**
 * The Payments page's "Export CSV" (issue 25, point 5): every field of the listing, flattened, with amounts in
 * minor units as stored and in standard units as people read them (integer arithmetic, never a float).
 */
export const CSV_COLUMNS = [
  'paymentId',
  'merchantId',
  'merchantName',
  'referenceId',
  'status',
  'isTerminal',
  'fiatCurrency',
  'fiatAmountMinor',
  'fiatAmount',
  'tokenAsset',
  'tokenSymbol',
  'tokenAmountMinor',
  'tokenAmount',
  'networkId',
  'transactionHash',
  'buyer',
  'feeMinor',
  'settled',
  'refundedMinor',
  'refundedCount',
  'createdAt',
  'lastUpdatedAt',
] as const

/** Minor units as a decimal string in standard units: "1999" with 2 decimals is "19.99". */
export function standardUnits(minor: string, decimals: number): string {
  if (decimals === 0) return minor
  const negative = minor.startsWith('-')
  const digits = (negative ? minor.slice(1) : minor).padStart(decimals + 1, '0')
  return `${negative ? '-' : ''}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}

/**
 * One CSV field: quoted when it holds a separator, a quote or a line break; and a text that a spreadsheet
 * would run as a formula (=, +, -, @ first) is written with a leading apostrophe, as OWASP advises.
 */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return ''
  let text = String(value)
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export const csvHeader = (): string => `${CSV_COLUMNS.join(',')}\r\n`

export function csvRow(payment: Payment): string {
  const fiat = payment.fiatAmount
  const token = payment.tokenAmount
  const values: Record<(typeof CSV_COLUMNS)[number], string | number | boolean | null | undefined> = {
    paymentId: payment.paymentId,
    merchantId: payment.merchant.id,
    merchantName: payment.merchant.name,
    referenceId: payment.referenceId,
    status: payment.status,
    isTerminal: payment.isTerminal,
    fiatCurrency: fiat?.unit.replace('iso4217/', ''),
    fiatAmountMinor: fiat?.value,
    fiatAmount: fiat ? standardUnits(fiat.value, fiat.display.decimals) : null,
    tokenAsset: token?.unit.replace('caip19/', ''),
    tokenSymbol: token?.display?.assetSymbol,
    tokenAmountMinor: token?.value,
    tokenAmount: token?.display ? standardUnits(token.value, token.display.decimals) : null,
    networkId: payment.transaction?.networkId,
    transactionHash: payment.transaction?.hash,
    buyer: payment.buyer?.accountCaip10,
    feeMinor: payment.fees?.total.value,
    settled: payment.settlement?.settled,
    refundedMinor: payment.refunded?.amount.value,
    refundedCount: payment.refunded?.count,
    createdAt: payment.createdAt,
    lastUpdatedAt: payment.lastUpdatedAt,
  }
  return `${CSV_COLUMNS.map((column) => csvField(values[column])).join(',')}\r\n`
}
