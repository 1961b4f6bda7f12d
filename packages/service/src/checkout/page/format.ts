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

/**
 * The one rule for token amounts, wherever the page or the server shows one: every decimal the exact
 * amount needs (a buyer signs for the exact amount), trailing zeros trimmed down to two: `69.12 USDC`,
 * `0.0042 ETH`, `5.00 USDC`.
 */
export function formatToken(amount: TokenAmount, locale: string): string {
  const decimals = amount.display?.decimals ?? 0
  const symbol = amount.display?.assetSymbol ?? amount.unit.split('/').pop() ?? ''
  const number = new Intl.NumberFormat(locale, {
    minimumFractionDigits: Math.min(2, decimals),
    maximumFractionDigits: decimals,
  }).format(minorToDecimal(amount.value, decimals) as DecimalString)
  return `${number} ${symbol}`
}

/** Significant digits a rate is rounded to for display: the amount itself is never rounded. */
const RATE_DIGITS = 6

/**
 * The rate an option's amount works out to, "1 EUR = 1.08 USDC": the token amount over the fiat amount,
 * divided exactly in bigints, then rounded half up to six significant digits (at least two decimals) for
 * display only, and trimmed like a token amount.
 */
export function formatRate(fiat: FiatAmount, token: TokenAmount, locale: string): string {
  const code = fiat.unit.slice('iso4217/'.length)
  const symbol = token.display?.assetSymbol ?? token.unit.split('/').pop() ?? ''
  const numerator = BigInt(token.value) * 10n ** BigInt(fiat.display.decimals)
  const denominator = BigInt(fiat.value) * 10n ** BigInt(token.display?.decimals ?? 0)
  if (denominator === 0n) throw new RangeError('no rate for a zero amount')
  // Enough decimals for RATE_DIGITS significant digits, at least two; the quotient is then rounded half up.
  let places = 2
  while (places < 60 && (numerator * 10n ** BigInt(places)) / denominator < 10n ** BigInt(RATE_DIGITS - 1)) places++
  const scaled = (numerator * 10n ** BigInt(places) * 2n + denominator) / (denominator * 2n)
  const number = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: places }).format(
    minorToDecimal(scaled.toString(), places) as DecimalString,
  )
  return `1 ${code} = ${number} ${symbol}`
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
