import type { FiatAmount, TokenAmount } from '@till/contract'

/**
 * Money formatting without floats: minor units become a decimal string by moving the point, and Intl
 * formats that string exactly (Intl.NumberFormat accepts decimal strings, so 12345678901234567.89 stays
 * what it is).
 */

/** `"1999", 2` → `"19.99"`; `"5", 0` → `"5"`. */
export function minorToDecimal(value: string, decimals: number): string {
  if (!/^[0-9]+$/.test(value)) throw new RangeError(`not a minor-unit amount: ${value}`)
  if (decimals === 0) return value.replace(/^0+(?=[0-9])/, '')
  const padded = value.padStart(decimals + 1, '0')
  const whole = padded.slice(0, -decimals).replace(/^0+(?=[0-9])/, '')
  return `${whole}.${padded.slice(-decimals)}`
}

type DecimalString = `${number}`

export function formatFiat(amount: FiatAmount, locale: string): string {
  const code = amount.unit.slice('iso4217/'.length)
  const digits = amount.display.decimals
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: code,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(minorToDecimal(amount.value, digits) as DecimalString)
}

/** Token amounts show every significant decimal (a buyer signs for the exact amount), at least two. */
export function formatToken(amount: TokenAmount, locale: string): string {
  const decimals = amount.display?.decimals ?? 0
  const symbol = amount.display?.assetSymbol ?? amount.unit.split('/').pop() ?? ''
  const number = new Intl.NumberFormat(locale, {
    minimumFractionDigits: Math.min(2, decimals),
    maximumFractionDigits: decimals,
  }).format(minorToDecimal(amount.value, decimals) as DecimalString)
  return `${number} ${symbol}`
}

/** `eip155:8453:0xabc…` → `0xabcd…7890`: enough to recognise, short enough to read. */
export function shortAccount(caip10OrAddress: string): string {
  const address = caip10OrAddress.split(':').pop() ?? caip10OrAddress
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address
}

/** Remaining time as `m:ss` (or `h:mm:ss`), never negative. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = String(total % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`
}
