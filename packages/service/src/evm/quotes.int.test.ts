import { describe, expect, it } from 'vitest'
import { createAccount, useTestDatabase } from '../../test/fixtures.ts'
import { insertPayments } from '../../test/listing-fixtures.ts'
import { type NewQuote, paymentQuotes } from './quotes.ts'

const ctx = useTestDatabase()

const usdc = (tokenMinor: bigint, rate: string): NewQuote => ({
  optionId: 'usdc-base',
  network: 'eip155:8453',
  token: 'eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
  tokenMinor,
  rate,
  rateSource: 'fixed',
  rateAsOf: null,
  recipient: '0x52908400098527886E0F7030069857D2E4169EE7',
  room: 1n,
})
const fixed = ({ room: _room, ...quote }: NewQuote) => ({ ...quote, uniqueAmount: true })

describe('payment quotes', () => {
  it('keep the first quote of each option for the payment’s lifetime, whatever the rate does later', async () => {
    const account = await createAccount(ctx.tdb.db)
    const [id = ''] = await insertPayments(ctx.tdb.db, [{ ...account, createdAt: '2026-11-25T10:00:00Z', status: 'pending' }])
    const quotes = paymentQuotes(ctx.tdb.db)
    const huge = 2n ** 200n
    const payment = { id, expiresAt: new Date('2026-11-25T10:15:00Z') }
    expect(await quotes.fix(payment, [usdc(huge, '1.0842')], new Date())).toEqual([fixed(usdc(huge, '1.0842'))])
    const later = await quotes.fix(
      payment,
      [usdc(1n, '9.99'), { ...usdc(5n, '1'), optionId: 'dai-base', token: 'eip155:8453/erc20:0x50c5725949a6f0c72e6c4a641f24049a917db0cb' }],
      new Date(),
    )
    expect(later.map((quote) => [quote.optionId, quote.tokenMinor, quote.rate])).toEqual([
      ['usdc-base', huge, '1.0842'],
      ['dai-base', 5n, '1'],
    ])
  })
})

describe('a transaction hash', () => {
  it('pays at most one payment on its network, whatever the case of its hex digits', async () => {
    const account = await createAccount(ctx.tdb.db)
    const [first = '', second = '', third = ''] = await insertPayments(
      ctx.tdb.db,
      ['2026-11-25T10:00:00Z', '2026-11-25T10:00:01Z', '2026-11-25T10:00:02Z'].map((createdAt) => ({
        ...account,
        createdAt,
        status: 'processing' as const,
      })),
    )
    const hash = `0x${'Ab'.repeat(32)}`
    const bind = (id: string, network: string, txHash: string) =>
      ctx.tdb.db.query('UPDATE payments SET network = $2, tx_hash = $3 WHERE id = $1', [id, network, txHash])
    await bind(first, 'eip155:8453', hash)
    await expect(bind(second, 'eip155:8453', hash.toLowerCase())).rejects.toThrow(/payments_tx_hash_once/)
    // The same hash on another chain is another transaction.
    await bind(third, 'eip155:1', hash)
  })
})
