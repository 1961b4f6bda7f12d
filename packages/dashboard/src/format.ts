/** Minor units as the currency's own display: 1250 EUR → €12.50. Integer arithmetic, never a float of money. */
export function money(value: string, currency: string, decimals: number): string {
  const digits = value.padStart(decimals + 1, '0')
  const major = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
  const formatter = new Intl.NumberFormat('en-IE', { style: 'currency', currency, minimumFractionDigits: decimals })
  // Intl takes a decimal string as it is (no float on the way) where the engine supports it.
  return formatter.format(major as unknown as number)
}

/** A token's smallest units as its whole units, every digit kept: 12503817 with 6 decimals → 12.503817. */
export function units(value: string, decimals: number): string {
  if (decimals === 0) return value
  const digits = value.padStart(decimals + 1, '0')
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}

export const dateTime = new Intl.DateTimeFormat('en-IE', { dateStyle: 'medium', timeStyle: 'short' })
export const when = (iso: string) => dateTime.format(new Date(iso))

/** The listing's statuses, in the words the Payments page's tabs use. */
export const STATUS_WORDS: Record<string, string> = {
  requires_action: 'Requires action',
  processing: 'Processing',
  succeeded: 'Succeeded',
  failed: 'Failed',
  expired: 'Expired',
  cancelled: 'Cancelled',
  pending: 'Requires action',
}
