// The transfer the checkout page builds, as Till reads it back from a signed transaction: exactly that, or
// that with an ERC-8021 attribution suffix a wallet appended (the Base app and others credit themselves so).
import { describe, expect, it } from 'vitest'
import { carriesCall, paymentReference, transferCall } from './reference.ts'

const MERCHANT = '0x52908400098527886E0F7030069857D2E4169EE7'
const call = transferCall(MERCHANT, 21_673_158n, paymentReference('pay_1'))
// ERC-8021 schema 0, codes "baseapp,morpho": codes, their length (0x0e), the schema id (0x00), the marker.
const ATTRIBUTION = '626173656170702c6d6f7270686f0e0080218021802180218021802180218021'

describe('a signed transfer carries the page’s call', () => {
  it('when it is the call exactly, in either case of hex digits', () => {
    expect(carriesCall(call, call)).toBe(true)
    expect(carriesCall(call.toUpperCase().replace('0X', '0x') as `0x${string}`, call)).toBe(true)
  })

  it('when a wallet appended an ERC-8021 attribution suffix after the reference', () => {
    expect(carriesCall(`${call}${ATTRIBUTION}`, call)).toBe(true)
  })

  it('not when anything else follows the reference', () => {
    expect(carriesCall(`${call}00`, call)).toBe(false)
    expect(carriesCall(`${call}deadbeef`, call)).toBe(false)
    // Half a byte short of a suffix: not calldata a wallet could sign.
    expect(carriesCall(`${call}${ATTRIBUTION.slice(1)}`, call)).toBe(false)
  })

  it('not when the reference is missing, even with an attribution suffix where it should be', () => {
    const withoutReference = transferCall(MERCHANT, 21_673_158n, '0x')
    expect(carriesCall(`${withoutReference}${ATTRIBUTION}`, call)).toBe(false)
    expect(carriesCall(`${transferCall(MERCHANT, 21_673_158n, paymentReference('pay_2'))}${ATTRIBUTION}`, call)).toBe(false)
  })
})
