// Refunds on a real local chain (issue 24): the buyer claims, the merchant's own account pays (through the pay
// page, or from any wallet, found by the chain watcher), and Till verifies the transfer and follows it to its
// confirmations, through a reorganisation.
import { devAccount } from '@till/devchain'
import { Refund } from '@till/contract'
import { erc20Abi, getAddress, type Hash } from 'viem'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCheckoutPayment, gatewayCall } from '../../test/checkout-fixtures.ts'
import {
  BUYER,
  HAND_TIMING,
  handFollower,
  handWatcher,
  receiveOnLocalChain,
  STRANGER,
  transfer,
  useLocalChain,
} from '../../test/evm-fixtures.ts'
import { createAccount, silentLog, testClock, useTestApp, type Account, type TestAppOptions } from '../../test/fixtures.ts'
import { dashboardMember } from '../../test/dashboard-fixtures.ts'
import { refundReference } from '../refunds/index.ts'
import { transferCall } from './reference.ts'
import { evmRefunds } from './refunds.ts'

// Two confirmations: a refund's transfer is followed until it has them, and a reorg before then is seen.
const chain = useLocalChain(2)
const clock = testClock()
const options: TestAppOptions = { clock }
beforeAll(() => {
  options.evm = { config: chain.config, timing: HAND_TIMING }
})
const ctx = useTestApp(options)
/** The merchant's receiving account: it holds what buyers paid, and pays their refunds. */
const MERCHANT_WALLET = devAccount(2)
const buyerAccount = `eip155:31337:${getAddress(BUYER.address)}`

let account: Account
let refundFollower: ReturnType<typeof evmRefunds>
let watcher: ReturnType<typeof handWatcher>
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db)
  await receiveOnLocalChain(ctx.tdb.db, account)
  refundFollower = evmRefunds({ db: ctx.tdb.db, config: chain.config, clock, log: silentLog, timing: HAND_TIMING })
  watcher = handWatcher(ctx.tdb.db, clock, chain.config)
  await chain.clients.test.mine({ blocks: 1 })
  await watcher.runOnce()
})

const balanceOf = (address: `0x${string}`) =>
  chain.clients.public.readContract({ address: chain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] })

/** A payment the buyer paid on chain, confirmed: what the merchant then refunds. */
async function paidPayment(): Promise<{ paymentId: string; amount: bigint }> {
  const created = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/EUR', value: '2000' } })
  const [option] = (await gatewayCall(ctx.app, created, '/options')).json<{ options: { tokenAmount: { value: string } }[] }>().options
  const amount = BigInt(option?.tokenAmount.value ?? '0')
  const hash = await transfer(chain, { paymentId: created.paymentId, amount })
  const posted = await gatewayCall(ctx.app, created, '/confirm', {
    method: 'POST',
    payload: { walletId: 'browser', optionId: 'usdc-31337', account: buyerAccount, transactionHash: hash },
  })
  expect(posted.statusCode).toBe(200)
  await chain.clients.test.mine({ blocks: 2 })
  await handFollower(ctx.tdb.db, clock, chain.config).runOnce()
  return { paymentId: created.paymentId, amount }
}

let keys = 0
async function createRefund(body: object): Promise<Refund> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/v1/refunds',
    headers: { ...account.headers, 'idempotency-key': `k${++keys}` },
    payload: body,
  })
  expect(response.statusCode, response.body).toBe(201)
  return Refund.parse(response.json())
}

const refundNow = async (id: string) => Refund.parse((await ctx.app.inject({ url: `/v1/refunds/${id}`, headers: account.headers })).json())
const pagePath = (url: string | null) => {
  const link = new URL(url ?? '')
  return { path: link.pathname.replace(/^\/pay/, '/checkout'), token: link.searchParams.get('token') ?? '' }
}

/** The buyer's claim page, as their browser's form posts it. */
async function claim(refund: Refund, destination: string) {
  const { path, token } = pagePath(refund.claimUrl)
  return ctx.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token, destination, confirm: '1' }).toString(),
  })
}

/** The merchant's wallet sends the refund's transfer, as its pay page asks: to the destination, then the reference. */
async function payFromMerchant(refund: Refund, to: `0x${string}` = BUYER.address, withReference = true): Promise<Hash> {
  const hash = await chain.clients.wallet.sendTransaction({
    account: MERCHANT_WALLET,
    to: chain.usdc,
    data: transferCall(to, BigInt(refund.tokenAmount.value), withReference ? refundReference(refund.id) : '0x'),
  })
  await chain.clients.public.waitForTransactionReceipt({ hash })
  return hash
}

const postHash = (refund: Refund, transactionHash: string) => {
  const { path, token } = pagePath(refund.payUrl)
  return ctx.app.inject({
    method: 'POST',
    url: `${path.replace(/\/pay$/, '/transaction')}?token=${token}`,
    payload: { transactionHash },
  })
}

describe('a refund paid from the merchant’s account', () => {
  it('in full, through the claim and pay pages: verified, confirmed, and the buyer has the tokens back', async () => {
    const { paymentId, amount } = await paidPayment()
    const refund = await createRefund({ paymentId, reason: 'Out of stock' })
    expect(refund.tokenAmount.value).toBe(amount.toString())
    const claimed = await claim(refund, buyerAccount)
    expect(claimed.statusCode).toBe(200)
    expect(claimed.body).toContain('Thank you')
    const ready = await refundNow(refund.id)
    expect(ready).toMatchObject({ status: 'ready', destination: buyerAccount, claimUrl: null })

    const before = await balanceOf(BUYER.address)
    const hash = await payFromMerchant(ready)
    const posted = await postHash(ready, hash)
    expect(posted.statusCode, posted.body).toBe(200)
    expect(posted.json()).toMatchObject({ status: 'submitted' })
    await refundFollower.runOnce()
    expect((await refundNow(refund.id)).status).toBe('submitted')
    await chain.clients.test.mine({ blocks: 1 })
    await refundFollower.runOnce()
    const done = await refundNow(refund.id)
    expect(done).toMatchObject({
      status: 'succeeded',
      transaction: { networkId: 'eip155:31337', hash: hash.toLowerCase(), from: `eip155:31337:${getAddress(MERCHANT_WALLET.address)}` },
    })
    expect((await balanceOf(BUYER.address)) - before).toBe(amount)
  })

  it('in part, from any wallet: the watcher finds the transfer by its reference, then the rest by its unique amount', async () => {
    const { paymentId, amount } = await paidPayment()
    const part = await createRefund({ paymentId, amount: '500', destination: buyerAccount })
    const rest = await createRefund({ paymentId, destination: buyerAccount })
    expect(BigInt(part.tokenAmount.value) + BigInt(rest.tokenAmount.value)).toBe(amount)

    await payFromMerchant(part)
    await payFromMerchant(rest, BUYER.address, false)
    await watcher.runOnce()
    expect((await refundNow(part.id)).status).toBe('submitted')
    expect((await refundNow(rest.id)).status).toBe('submitted')
    await chain.clients.test.mine({ blocks: 1 })
    await refundFollower.runOnce()
    expect((await refundNow(part.id)).status).toBe('succeeded')
    expect((await refundNow(rest.id)).status).toBe('succeeded')
    const listed = await ctx.app.inject({ url: '/v1/payments?limit=200', headers: { 'api-key': account.apiKey } })
    const payment = listed.json<{ data: { paymentId: string; refunded?: unknown }[] }>().data.find((p) => p.paymentId === paymentId)
    expect(payment?.refunded).toEqual({ amount: expect.objectContaining({ value: '2000' }), count: 2 })
  })
})

describe('a refund paid outside Till', () => {
  it('marked refunded with its hash before the buyer claimed: its recipient becomes the destination, and it is followed', async () => {
    const { paymentId } = await paidPayment()
    const refund = await createRefund({ paymentId, amount: '800' })
    const hash = await payFromMerchant(refund, BUYER.address, false)
    const marked = await ctx.app.inject({
      method: 'POST',
      url: `/v1/refunds/${refund.id}/mark-refunded`,
      headers: account.headers,
      payload: { transactionHash: hash },
    })
    expect(marked.statusCode, marked.body).toBe(200)
    expect(Refund.parse(marked.json())).toMatchObject({ status: 'submitted', destination: buyerAccount, claimUrl: null })
    await chain.clients.test.mine({ blocks: 1 })
    await refundFollower.runOnce()
    expect((await refundNow(refund.id)).status).toBe('succeeded')
  })
})

describe('an unapplied transfer', () => {
  it('is refunded whole, to the account that sent it, once at a time', async () => {
    const created = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/EUR', value: '1000' } })
    const [option] = (await gatewayCall(ctx.app, created, '/options')).json<{ options: { tokenAmount: { value: string } }[] }>().options
    const short = BigInt(option?.tokenAmount.value ?? '0') - 1n
    const hash = await transfer(chain, { paymentId: created.paymentId, amount: short })
    await watcher.runOnce()
    const unappliedTransferId = `eip155:31337/${hash.toLowerCase()}`
    const refund = await createRefund({ unappliedTransferId })
    expect(refund).toMatchObject({ paymentId: created.paymentId, unappliedTransferId, amount: null, status: 'awaiting_destination' })
    expect(refund.tokenAmount.value).toBe(short.toString())
    const claimPage = await ctx.app.inject({ url: `${pagePath(refund.claimUrl).path}?token=${pagePath(refund.claimUrl).token}` })
    expect(claimPage.body).toContain(buyerAccount)
    const again = await ctx.app.inject({
      method: 'POST',
      url: '/v1/refunds',
      headers: { ...account.headers, 'idempotency-key': `k${++keys}` },
      payload: { unappliedTransferId },
    })
    expect(again.statusCode).toBe(409)
    expect(again.json()).toMatchObject({ code: 'payment_not_refundable' })
    const listed = await ctx.app.inject({ url: `/v1/refunds?unappliedTransferId=${unappliedTransferId}`, headers: account.headers })
    expect(listed.json<{ data: { id: string }[] }>().data.map((item) => item.id)).toEqual([refund.id])
  })
})

describe('an unapplied transfer, from the dashboard', () => {
  it('is listed on the Unapplied transfers page and refunded by an admin to the account that sent it', async () => {
    const created = await createCheckoutPayment(ctx.app, account, { amount: { unit: 'iso4217/EUR', value: '1000' } })
    const [option] = (await gatewayCall(ctx.app, created, '/options')).json<{ options: { tokenAmount: { value: string } }[] }>().options
    const short = BigInt(option?.tokenAmount.value ?? '0') - 1n
    const hash = await transfer(chain, { paymentId: created.paymentId, amount: short })
    await watcher.runOnce()
    const admin = await dashboardMember(ctx, clock, account, 'admin')
    const page = await admin.get(`/dashboard/api/merchants/${account.merchantId}/unapplied-transfers`)
    // Others may be listed too: every test's merchant receives at the same address of the local chain.
    const id = `eip155:31337/${hash.toLowerCase()}`
    const listed = page.json<{ data: { id: string; reason: string; from: string }[] }>().data.find((transfer) => transfer.id === id)
    expect(listed).toMatchObject({ reason: 'amount_mismatch', from: buyerAccount })
    const refund = await admin.post(
      `/dashboard/api/merchants/${account.merchantId}/unapplied-transfers/refunds`,
      { unappliedTransferId: listed?.id, destination: listed?.from },
      { 'idempotency-key': 'dashboard-1' },
    )
    expect(refund.statusCode).toBe(201)
    expect(refund.json()).toMatchObject({
      status: 'ready',
      destination: buyerAccount,
      tokenAmount: { value: short.toString() },
      payUrl: expect.any(String),
    })
  })
})

describe('a transfer that does not pay the refund', () => {
  it('to another address is refused by the pay page, naming transactionHash, and not matched by the watcher', async () => {
    const { paymentId } = await paidPayment()
    const refund = await createRefund({ paymentId, destination: buyerAccount })
    const wrong = await payFromMerchant(refund, STRANGER.address)
    const posted = await postHash(refund, wrong)
    expect(posted.statusCode).toBe(400)
    expect(posted.json()).toMatchObject({ code: 'params_validation', issues: [{ field: 'transactionHash' }] })
    await watcher.runOnce()
    expect((await refundNow(refund.id)).status).toBe('ready')
  })

  it('given to mark-refunded is refused: another amount with 400, an unknown hash with 409 transaction_not_found', async () => {
    const { paymentId } = await paidPayment()
    const refund = await createRefund({ paymentId, amount: '700', destination: buyerAccount })
    const other = await createRefund({ paymentId, amount: '600', destination: buyerAccount })
    const paysOther = await payFromMerchant(other)
    const mark = (transactionHash: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/v1/refunds/${refund.id}/mark-refunded`,
        headers: account.headers,
        payload: { transactionHash },
      })
    const wrongAmount = await mark(paysOther)
    expect(wrongAmount.statusCode).toBe(400)
    expect(wrongAmount.json()).toMatchObject({ issues: [{ field: 'transactionHash' }] })
    expect((await mark(`0x${'ab'.repeat(32)}`)).json()).toMatchObject({ code: 'transaction_not_found' })
    expect((await refundNow(refund.id)).status).toBe('ready')
  })
})

describe('a reorganisation before the refund’s confirmations', () => {
  it('sends it back to waiting; mined again, it succeeds', async () => {
    const { paymentId } = await paidPayment()
    const refund = await createRefund({ paymentId, destination: buyerAccount })
    const request = await chain.clients.wallet.prepareTransactionRequest({
      account: MERCHANT_WALLET,
      to: chain.usdc,
      data: transferCall(BUYER.address, BigInt(refund.tokenAmount.value), refundReference(refund.id)),
    })
    const raw = await chain.clients.wallet.signTransaction(request)
    const snapshot = await chain.clients.test.snapshot()
    const hash = await chain.clients.public.sendRawTransaction({ serializedTransaction: raw })
    await chain.clients.public.waitForTransactionReceipt({ hash })
    expect((await postHash(refund, hash)).statusCode).toBe(200)

    await chain.clients.test.revert({ id: snapshot })
    await refundFollower.runOnce()
    expect((await refundNow(refund.id)).status).toBe('submitted')
    const [row] = await ctx.tdb.db.query<{ lost: boolean }>('SELECT unmined_since IS NOT NULL AS lost FROM refunds WHERE id = $1', [
      refund.id,
    ])
    expect(row?.lost).toBe(true)

    await chain.clients.public.sendRawTransaction({ serializedTransaction: raw })
    await chain.clients.test.mine({ blocks: 2 })
    await refundFollower.runOnce()
    expect((await refundNow(refund.id)).status).toBe('succeeded')
  })
})
