// EIP-681 payment requests for an ERC-20 transfer, as the checkout page shows phone wallets and as they read it:
// `ethereum:<token>@<chainId>/transfer?address=<recipient>&uint256=<amount>`. Strict: this form only, so that
// a request the page gets wrong is refused here rather than paid differently.
import { isAddress } from 'viem'

export type PaymentRequest = {
  /** The ERC-20 contract. */
  token: `0x${string}`
  chainId: number
  recipient: `0x${string}`
  /** In the token's smallest unit. */
  amount: bigint
}

export class PaymentRequestError extends Error {
  override name = 'PaymentRequestError'
}

const FORM = 'ethereum:<token address>@<chain id>/transfer?address=<recipient address>&uint256=<amount>'
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const MAX_UINT256 = 2n ** 256n - 1n

/** Parses an ERC-20 transfer request; throws a PaymentRequestError saying what is wrong with any other. */
export function parsePaymentRequest(input: string): PaymentRequest {
  const uri = input.trim()
  if (!uri.startsWith('ethereum:')) fail('it does not start with "ethereum:"')
  const match = /^ethereum:(?:pay-)?([^@/?]*)(?:@([^/?]*))?(?:\/([^?]*))?(?:\?(.*))?$/.exec(uri)
  if (!match) fail('it is malformed')
  const [, target = '', chain, functionName, query] = match
  const token = address(target, 'the token')
  if (chain === undefined) fail('it names no chain (@<chain id> after the token)')
  if (!/^[1-9][0-9]{0,15}$/.test(chain) || !Number.isSafeInteger(Number(chain))) fail(`"${chain}" is not a decimal chain id`)
  if (functionName !== 'transfer') fail(functionName === undefined ? 'it names no function' : `it calls "${functionName}", not "transfer"`)
  const parameters = new Map<string, string>()
  for (const pair of query ? query.split('&') : []) {
    const equals = pair.indexOf('=')
    const key = equals < 0 ? pair : pair.slice(0, equals)
    if (key !== 'address' && key !== 'uint256') fail(`"${key}" is not a parameter of transfer(address, uint256)`)
    if (parameters.has(key)) fail(`"${key}" is given twice`)
    parameters.set(key, equals < 0 ? '' : pair.slice(equals + 1))
  }
  const recipient = parameters.get('address')
  if (recipient === undefined) fail('it has no address= (the recipient)')
  const amount = parameters.get('uint256')
  if (amount === undefined) fail('it has no uint256= (the amount)')
  return { token, chainId: Number(chain), recipient: address(recipient, 'the recipient'), amount: integer(amount) }
}

function fail(problem: string): never {
  throw new PaymentRequestError(`not an ERC-20 payment request: ${problem}; expected ${FORM}`)
}

function address(text: string, what: string): `0x${string}` {
  if (!ADDRESS.test(text)) fail(`${what} "${text}" is not a 0x address of 40 hex digits`)
  // Mixed case is an EIP-55 checksum, which a typo breaks.
  const mixed = /[a-f]/.test(text.slice(2)) && /[A-F]/.test(text.slice(2))
  if (mixed && !isAddress(text, { strict: true })) fail(`${what} "${text}" has a wrong checksum (its mix of upper and lower case)`)
  return text as `0x${string}`
}

/** A positive integer up to 2²⁵⁶ − 1, in decimal or in EIP-681's scientific notation (2.1673159e7). */
function integer(text: string): bigint {
  const match = /^([0-9]+)(?:\.([0-9]+))?(?:[eE]([0-9]{1,3}))?$/.exec(text)
  if (!match) fail(`the amount "${text}" is not a number`)
  const [, whole = '', fraction = '', exponent = '0'] = match
  const shift = Number(exponent) - fraction.length
  const digits = BigInt(whole + fraction)
  const divisor = 10n ** BigInt(Math.max(0, -shift))
  if (digits % divisor !== 0n) fail(`the amount "${text}" is not a whole number of the token's smallest unit`)
  const value = (digits / divisor) * 10n ** BigInt(Math.max(0, shift))
  if (value === 0n) fail('the amount is zero')
  if (value > MAX_UINT256) fail(`the amount "${text}" is more than a uint256 holds`)
  return value
}
