import { correction, generate } from 'lean-qr/nano'
import { describe, expect, it } from 'vitest'
import { modulesPath, qrCode } from './qr.ts'
import { pathModules, readQr } from './qr-read.test-helper.ts'

const REQUEST =
  'ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer?address=0x52908400098527886E0F7030069857D2E4169EE7&uint256=12500017'

describe('the QR code of a payment request', () => {
  it('reads back as the request, to the last digit of the amount', () => {
    const { size, path } = qrCode(REQUEST)
    expect(readQr(size, path)).toBe(REQUEST)
  })

  it('reads back for requests of every length Till writes: another chain, a huge amount', () => {
    const long = REQUEST.replace('@8453', '@11155111').replace(
      '12500017',
      '115792089237316195423570985008687907853269984665640564039457584007913129639935',
    )
    const { size, path } = qrCode(long)
    expect(readQr(size, path)).toBe(long)
  })

  it('draws exactly the modules the encoder set, each row’s dark runs as one rectangle', () => {
    const code = generate(REQUEST, { minCorrectionLevel: correction.M })
    const { size, path } = qrCode(REQUEST)
    expect(size).toBe(code.size)
    const expected = Array.from({ length: size }, (_, y) => Array.from({ length: size }, (_, x) => code.get(x, y)))
    expect(pathModules(size, path)).toEqual(expected)
  })

  it('merges a row’s neighbouring dark modules into runs', () => {
    const dark = new Set(['0,0', '1,0', '2,0', '4,0', '1,1'])
    expect(modulesPath(5, (x, y) => dark.has(`${x},${y}`))).toBe('M0 0h3v1h-3zM4 0h1v1h-1zM1 1h1v1h-1z')
  })
})
