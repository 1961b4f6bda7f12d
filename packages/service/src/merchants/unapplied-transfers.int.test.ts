// GET /v1/merchants/{merchantId}/unapplied-transfers: the partner's view of what its merchants should refund.
import { ErrorBody, UnappliedTransferList } from '@till/contract'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Account, createAccount, testClock, useTestApp } from '../../test/fixtures.ts'
import type { Address } from '../evm/ids.ts'
import { unappliedTransfers } from '../evm/unapplied.ts'

const clock = testClock()
const ctx = useTestApp({ clock })

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
})

const BUYER = '0x52908400098527886e0f7030069857d2e4169ee7' as Address
const SHOP = '0x8ba1f109551bd432803012645ac136ddd64dba72' as Address
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

/** Records `count` transfers to the account's merchant, a second apart; their hashes, oldest first. */
async function seed(count: number): Promise<string[]> {
  const hashes: string[] = []
  for (let n = 1; n <= count; n++) {
    clock.advance(1_000)
    await unappliedTransfers(ctx.tdb.db).record(
      {
        network: 'eip155:8453',
        txHash: hash(n),
        logIndex: n,
        merchantId: account.merchantId,
        paymentId: null,
        reason: 'no_matching_payment',
        sender: BUYER,
        recipient: SHOP,
        token: USDC,
        amount: BigInt(n),
        blockNumber: 100n + BigInt(n),
      },
      clock.now(),
    )
    hashes.push(hash(n))
  }
  return hashes
}

const list = (
  query = '',
  headers: Record<string, string> = { authorization: `Bearer ${account.apiKey}` },
  merchantId = account.merchantId,
) => ctx.app.inject({ url: `/v1/merchants/${merchantId}/unapplied-transfers${query}`, headers })

describe('GET /v1/merchants/{merchantId}/unapplied-transfers', () => {
  it('pages the transfers newest first, following nextCursor to the end', async () => {
    const hashes = await seed(5)
    const seen: string[] = []
    let query = '?limit=2'
    let pages = 0
    for (;;) {
      const response = await list(query)
      expect(response.statusCode, response.body).toBe(200)
      const page = UnappliedTransferList.parse(response.json())
      seen.push(...page.data.map((transfer) => transfer.transaction.hash))
      pages += 1
      if (page.nextCursor === null) break
      query = `?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`
    }
    expect(pages).toBe(3)
    expect(seen).toEqual(hashes.toReversed())
    const [newest] = UnappliedTransferList.parse((await list()).json()).data
    expect(newest).toEqual({
      id: `eip155:8453/${hash(5)}`,
      transaction: { networkId: 'eip155:8453', hash: hash(5), logIndex: 5 },
      from: 'eip155:8453:0x52908400098527886E0F7030069857D2E4169EE7',
      to: 'eip155:8453:0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      // No EVM configuration here: the token is shown by its id alone.
      tokenAmount: { unit: `caip19/eip155:8453/erc20:${USDC}`, value: '5', display: null },
      reason: 'no_matching_payment',
      paymentId: null,
      recordedAt: clock.now().toISOString(),
    })
  })

  it('answers an empty page for a merchant with none', async () => {
    expect((await list()).json()).toEqual({ data: [], nextCursor: null })
  })

  it('needs the partner’s key, as Authorization: Bearer or Api-Key', async () => {
    await seed(1)
    expect((await list('', { 'api-key': account.apiKey })).statusCode).toBe(200)
    for (const [headers, code] of [
      [{}, 'missing_api_key'],
      [{ authorization: 'Bearer till_sk_live_nope_nope' }, 'invalid_api_key'],
    ] as const) {
      const response = await list('', headers)
      expect(response.statusCode).toBe(401)
      expect(ErrorBody.parse(response.json()).code).toBe(code)
    }
  })

  it("answers 404 for another partner's merchant or an unknown one, showing nothing", async () => {
    await seed(1)
    const stranger = await createAccount(ctx.tdb.db)
    for (const [merchantId, key] of [
      [account.merchantId, stranger.apiKey],
      ['mer_00000000000000000000000000', account.apiKey],
      ['not-an-id', account.apiKey],
    ] as const) {
      const response = await list('', { authorization: `Bearer ${key}` }, merchantId)
      expect(response.statusCode, merchantId).toBe(404)
      expect(ErrorBody.parse(response.json()).code).toBe('merchant_not_found')
    }
  })

  it('refuses a bad query with the spec’s error body: what cannot be read, and what breaks a rule', async () => {
    for (const [query, code, field] of [
      ['?limit=abc', 'invalid_params', 'limit'],
      ['?limit=2&limit=3', 'invalid_params', 'limit'],
      ['?sortBy=date', 'invalid_params', 'sortBy'],
      ['?cursor=nope', 'invalid_params', 'cursor'],
      ['?cursor=', 'params_validation', 'cursor'],
      ['?limit=0', 'params_validation', 'limit'],
      ['?limit=201', 'params_validation', 'limit'],
    ] as const) {
      const response = await list(query)
      expect(response.statusCode, query).toBe(400)
      const error = ErrorBody.parse(response.json())
      expect(error.code, query).toBe(code)
      expect(error.issues?.[0]?.field, query).toContain(field)
    }
  })
})
