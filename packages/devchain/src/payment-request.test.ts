import { describe, expect, it } from 'vitest'
import { PaymentRequestError, parsePaymentRequest } from './payment-request.ts'

const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const URI = `ethereum:${TOKEN}@31337/transfer?address=${RECIPIENT}&uint256=21673159`

describe('parsePaymentRequest', () => {
  it('reads the checkout page’s ERC-20 transfer request', () => {
    expect(parsePaymentRequest(URI)).toEqual({ token: TOKEN, chainId: 31337, recipient: RECIPIENT, amount: 21_673_159n })
  })

  it.each([
    ['the pay- prefix', `ethereum:pay-${TOKEN}@31337/transfer?address=${RECIPIENT}&uint256=21673159`],
    ['the parameters in the other order', `ethereum:${TOKEN}@31337/transfer?uint256=21673159&address=${RECIPIENT}`],
    ['scientific notation', `ethereum:${TOKEN}@31337/transfer?address=${RECIPIENT}&uint256=2.1673159e7`],
    ['scientific notation with trailing zeros', `ethereum:${TOKEN}@31337/transfer?address=${RECIPIENT}&uint256=21673159.000e0`],
    ['whitespace around it, as pasted', `  ${URI}\n`],
  ])('accepts %s', (_, uri) => {
    expect(parsePaymentRequest(uri).amount).toBe(21_673_159n)
  })

  it('accepts lower-case addresses (no checksum to check) and large amounts', () => {
    const lower = `ethereum:${TOKEN.toLowerCase()}@1/transfer?address=${RECIPIENT.toLowerCase()}&uint256=1e30`
    expect(parsePaymentRequest(lower)).toEqual({
      token: TOKEN.toLowerCase(),
      chainId: 1,
      recipient: RECIPIENT.toLowerCase(),
      amount: 10n ** 30n,
    })
  })

  it.each([
    ['not an ethereum: URI', `bitcoin:${TOKEN}`, 'does not start with "ethereum:"'],
    ['no chain id', `ethereum:${TOKEN}/transfer?address=${RECIPIENT}&uint256=1`, 'names no chain'],
    ['a hex chain id', `ethereum:${TOKEN}@0x7a69/transfer?address=${RECIPIENT}&uint256=1`, '"0x7a69" is not a decimal chain id'],
    ['chain id 0', `ethereum:${TOKEN}@0/transfer?address=${RECIPIENT}&uint256=1`, 'not a decimal chain id'],
    ['an ENS name', `ethereum:usdc.eth@1/transfer?address=${RECIPIENT}&uint256=1`, 'the token "usdc.eth" is not a 0x address'],
    ['a short address', `ethereum:${TOKEN}@1/transfer?address=0x1234&uint256=1`, 'the recipient "0x1234" is not a 0x address'],
    ['a wrong checksum', `ethereum:${TOKEN}@1/transfer?address=${RECIPIENT.replace('C8', 'c8')}&uint256=1`, 'has a wrong checksum'],
    ['no function (an ETH payment)', `ethereum:${RECIPIENT}@1?value=1e18`, 'names no function'],
    ['another function', `ethereum:${TOKEN}@1/approve?address=${RECIPIENT}&uint256=1`, 'calls "approve", not "transfer"'],
    ['an extra parameter', `${URI}&gasLimit=100000`, '"gasLimit" is not a parameter of transfer(address, uint256)'],
    ['a value', `${URI}&value=1`, '"value" is not a parameter'],
    ['a repeated parameter', `${URI}&uint256=5`, '"uint256" is given twice'],
    ['no recipient', `ethereum:${TOKEN}@1/transfer?uint256=1`, 'no address='],
    ['no amount', `ethereum:${TOKEN}@1/transfer?address=${RECIPIENT}`, 'no uint256='],
    ['a negative amount', `ethereum:${TOKEN}@1/transfer?address=${RECIPIENT}&uint256=-1`, 'the amount "-1" is not a number'],
    ['a hex amount', `ethereum:${TOKEN}@1/transfer?address=${RECIPIENT}&uint256=0x10`, 'the amount "0x10" is not a number'],
    ['a fraction', `ethereum:${TOKEN}@1/transfer?address=${RECIPIENT}&uint256=2.5`, 'not a whole number'],
    ['a fraction in scientific notation', `ethereum:${TOKEN}@1/transfer?address=${RECIPIENT}&uint256=2.16731595e7`, 'not a whole number'],
    ['a zero amount', `ethereum:${TOKEN}@1/transfer?address=${RECIPIENT}&uint256=0`, 'the amount is zero'],
    ['more than a uint256', `ethereum:${TOKEN}@1/transfer?address=${RECIPIENT}&uint256=1e78`, 'more than a uint256 holds'],
  ])('refuses %s, saying why', (_, uri, why) => {
    expect(() => parsePaymentRequest(uri)).toThrow(PaymentRequestError)
    expect(() => parsePaymentRequest(uri)).toThrow(why)
  })

  it('shows the expected form in its message', () => {
    expect(() => parsePaymentRequest('ethereum:')).toThrow(
      'expected ethereum:<token address>@<chain id>/transfer?address=<recipient address>&uint256=<amount>',
    )
  })
})
