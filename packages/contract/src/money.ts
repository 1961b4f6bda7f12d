import { z } from 'zod'
import { TokenUnit } from './caip.ts'
import { type Currency, currencyByCode, FIAT_UNIT_PATTERN, fiatUnit, parseFiatUnit } from './currency.ts'

/** uint256 has 78 decimal digits; nothing on any chain needs more. */
export const MAX_MINOR_UNITS_DIGITS = 78
/** Create-payment amounts are stored in a SQL `bigint`. */
export const MAX_CREATE_PAYMENT_VALUE = 9223372036854775807n

const MINOR_UNITS_PATTERN = /^(0|[1-9][0-9]*)$/
const POSITIVE_MINOR_UNITS_PATTERN = /^[1-9][0-9]*$/

/**
 * Names the first thing wrong with an amount string, because "invalid format" alone sends integrators
 * guessing whether `1.00` or `100` was wanted.
 */
export function describeMinorUnitsProblem(input: unknown, positive: boolean): string {
  if (typeof input !== 'string') return 'must be a string of digits (minor units), not a JSON number'
  if (input === '') return 'must not be empty'
  if (/^\s|\s$/.test(input) || /\s/.test(input)) return 'must not contain spaces'
  if (/^[+-]/.test(input)) return 'must not carry a sign'
  if (/[eE]/.test(input) && /^[0-9.eE+-]+$/.test(input)) return 'must not use exponent notation'
  if (/[.,]/.test(input)) return 'must be an integer count of minor units, without a decimal point'
  if (!/^[0-9]+$/.test(input)) return 'must contain only the digits 0-9'
  if (/^0[0-9]/.test(input)) return 'must not have leading zeros'
  if (positive && input === '0') return 'must be greater than zero'
  return 'is not a valid minor-unit amount'
}

export const MinorUnits = z
  .string({ error: (iss) => describeMinorUnitsProblem(iss.input, false) })
  .max(MAX_MINOR_UNITS_DIGITS, { error: `must have at most ${MAX_MINOR_UNITS_DIGITS} digits` })
  .regex(MINOR_UNITS_PATTERN, { error: (iss) => describeMinorUnitsProblem(iss.input, false) })
  .meta({
    id: 'MinorUnits',
    description:
      'Non-negative integer amount in minor units of its unit, as a decimal string: no sign, decimal point, exponent, spaces or leading zeros.',
    examples: ['0', '12345'],
  })

export const PositiveMinorUnits = z
  .string({ error: (iss) => describeMinorUnitsProblem(iss.input, true) })
  .max(MAX_MINOR_UNITS_DIGITS, { error: `must have at most ${MAX_MINOR_UNITS_DIGITS} digits` })
  .regex(POSITIVE_MINOR_UNITS_PATTERN, { error: (iss) => describeMinorUnitsProblem(iss.input, true) })
  .meta({
    id: 'PositiveMinorUnits',
    description: 'Positive integer amount in minor units, as a decimal string without leading zeros.',
    examples: ['1', '12345'],
  })

export const FiatUnit = z
  .string({ error: 'must be a string of the form iso4217/<CODE>' })
  // Aborting lets the Amount union report the fiat branch alone once the prefix has picked it.
  .regex(FIAT_UNIT_PATTERN, {
    error: 'must be iso4217/<CODE> with an upper-case three-letter ISO 4217 code, e.g. iso4217/USD',
    abort: true,
  })
  .superRefine((unit, ctx) => {
    const code = FIAT_UNIT_PATTERN.exec(unit)?.[1]
    // A malformed unit was already reported by the pattern; say nothing twice.
    if (code === undefined || currencyByCode(code) !== undefined) return
    ctx.addIssue({
      code: 'custom',
      input: unit,
      message: `unknown currency code ${code}: not an ISO 4217 currency accepted for payments (funds, metals and test codes are refused)`,
    })
  })
  .meta({
    id: 'FiatUnit',
    description: 'Fiat unit `iso4217/<CODE>`; CODE is an active ISO 4217 currency (list one, 2024-06-25), not a fund, metal or test code.',
    examples: ['iso4217/USD'],
  })

export const AmountDisplay = z
  .object({
    assetSymbol: z.string(),
    assetName: z.string(),
    decimals: z.int().min(0),
  })
  .meta({ id: 'AmountDisplay', description: 'How to present an amount: symbol, name and decimal places of its unit.' })

export const FiatAmount = z
  .object({ unit: FiatUnit, value: MinorUnits, display: AmountDisplay })
  .superRefine((amount, ctx) => {
    const currency = parseFiatUnit(amount.unit)
    if (currency === undefined || amount.display.decimals === currency.exponent) return
    ctx.addIssue({
      code: 'custom',
      path: ['display', 'decimals'],
      input: amount.display.decimals,
      message: `must be ${currency.exponent}, the number of minor-unit digits of ${currency.code}`,
    })
  })
  .meta({
    id: 'FiatAmount',
    description: 'Fiat amount in minor units; `display.decimals` equals the ISO 4217 exponent of the currency.',
  })

export const TokenAmountDisplay = AmountDisplay.extend({
  iconUrl: z.string().optional(),
  networkName: z.string().optional(),
  networkIconUrl: z.string().optional(),
}).meta({ id: 'TokenAmountDisplay', description: 'Presentation of a token amount, with optional icons and network name.' })

export const TokenAmount = z
  .object({ unit: TokenUnit, value: MinorUnits, display: TokenAmountDisplay.nullable() })
  .meta({ id: 'TokenAmount', description: 'Token amount in minor units of a CAIP-19 asset; `display` is null when unknown.' })

export const Amount = z
  .union([FiatAmount, TokenAmount])
  .meta({ id: 'Amount', description: 'A fiat or a token amount, told apart by the prefix of `unit`.' })

export const CreatePaymentAmount = z
  .object({
    unit: FiatUnit,
    value: PositiveMinorUnits.refine((value) => !POSITIVE_MINOR_UNITS_PATTERN.test(value) || BigInt(value) <= MAX_CREATE_PAYMENT_VALUE, {
      error: `must be at most ${MAX_CREATE_PAYMENT_VALUE} (it is stored in a signed 64-bit SQL bigint)`,
    }),
  })
  .meta({
    id: 'CreatePaymentAmount',
    description:
      `Amount to charge: a fiat unit and a positive minor-unit value of at most ${MAX_CREATE_PAYMENT_VALUE}. ` +
      'A currency without minor unit counts whole units.',
  })

export type MinorUnits = z.infer<typeof MinorUnits>
export type FiatUnit = z.infer<typeof FiatUnit>
export type AmountDisplay = z.infer<typeof AmountDisplay>
export type FiatAmount = z.infer<typeof FiatAmount>
export type TokenAmountDisplay = z.infer<typeof TokenAmountDisplay>
export type TokenAmount = z.infer<typeof TokenAmount>
export type Amount = z.infer<typeof Amount>
export type CreatePaymentAmount = z.infer<typeof CreatePaymentAmount>

export function fiatDisplay(currency: Currency): { assetSymbol: string; assetName: string; decimals: number } {
  return { assetSymbol: currency.code, assetName: currency.name, decimals: currency.exponent }
}

/** Throws on an unknown code or a negative value: both are programming errors by the time an amount is built. */
export function fiatAmount(code: string, value: bigint): FiatAmount {
  const currency = currencyByCode(code)
  if (currency === undefined) throw new RangeError(`unknown ISO 4217 currency code ${code}`)
  if (value < 0n) throw new RangeError(`a fiat amount cannot be negative, got ${value}`)
  return { unit: fiatUnit(currency.code), value: value.toString(), display: fiatDisplay(currency) }
}
