import { ErrorBody, MerchantResponse, PaymentListResponse } from '@till/contract'
import sharp from 'sharp'
import { afterAll, beforeEach, describe, expect, it } from 'vitest'
import { type Account, CHECKOUT_URL, createAccount, createBody, testClock, useTestApp } from '../../test/fixtures.ts'
import { logoImage, startLogoServer } from '../../test/logo-server.ts'

// Sandbox mode: loopback logo hosts are allowed, so a real HTTPS server on 127.0.0.1 stands in for the
// partner's CDN (logos.till-tea.com resolves to it through the injected lookup).
const clock = testClock()
const logos = await startLogoServer()
afterAll(() => logos.close())
const ctx = useTestApp({ clock, config: { sandbox: true }, outbound: { lookup: logos.lookup, ca: [logos.ca] } })

let account: Account
beforeEach(async () => {
  account = await createAccount(ctx.tdb.db, { sandbox: true })
})

let keys = 0
function create(iconUrl: string | null) {
  return ctx.app.inject({
    method: 'POST',
    url: '/v1/merchants',
    headers: { authorization: `Bearer ${account.apiKey}`, 'idempotency-key': `logo-${++keys}` },
    payload: { merchantName: 'Till Tea', merchantEmail: 'tea@till.example', iconUrl },
  })
}

function update(merchantId: string, payload: Record<string, unknown>) {
  return ctx.app.inject({ method: 'PATCH', url: `/v1/merchants/${merchantId}`, headers: { 'api-key': account.apiKey }, payload })
}

/** The bytes Till serves at iconUrl, and the headers it serves them with (CHECKOUT_URL is /checkout behind a proxy). */
async function served(iconUrl: string) {
  expect(iconUrl.startsWith(CHECKOUT_URL)).toBe(true)
  const response = await ctx.app.inject({ url: `/checkout${iconUrl.slice(CHECKOUT_URL.length)}` })
  expect(response.statusCode, iconUrl).toBe(200)
  return response
}

async function refusal(iconUrl: string) {
  const response = await create(iconUrl)
  expect(response.statusCode, response.body).toBe(400)
  const error = ErrorBody.parse(response.json())
  expect(error.code).toBe('params_validation')
  expect(error.issues).toHaveLength(1)
  expect(error.issues?.[0]?.field).toBe('iconUrl')
  return error.issues?.[0]?.message
}

describe('a logo imported at create', () => {
  it("is fetched once, re-encoded, and served at Till's own URL with immutable caching", async () => {
    logos.serve('/tea.png', await logoImage(1024))
    const response = await create(logos.url('/tea.png'))
    expect(response.statusCode, response.body).toBe(201)
    const { merchant } = MerchantResponse.parse(response.json())
    expect(merchant.iconUrl).toMatch(/^https:\/\/checkout\.till\.test\/pay\/logos\/[0-9a-f]{64}\/512\.webp$/)
    expect(logos.hits('/tea.png')).toBe(1)
    const image = await served(merchant.iconUrl ?? '')
    expect(image.headers['content-type']).toBe('image/webp')
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(image.headers['x-content-type-options']).toBe('nosniff')
    expect(await sharp(image.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 512, height: 512 })
  })

  it('does not change when the file at the source address is replaced; a PATCH changes it', async () => {
    logos.serve('/replaced.png', await logoImage(800, 800, { color: '#264653' }))
    const { merchant } = MerchantResponse.parse((await create(logos.url('/replaced.png'))).json())
    const before = (await served(merchant.iconUrl ?? '')).rawPayload
    logos.serve('/replaced.png', await logoImage(800, 800, { color: '#e76f51' }))
    const page = await ctx.app.inject({
      method: 'POST',
      url: '/v1/merchant/payment',
      headers: { 'api-key': account.apiKey, 'merchant-id': merchant.id },
      payload: createBody(),
    })
    const gateway = new URL(page.json<{ gatewayUrl: string }>().gatewayUrl)
    const html = (await ctx.app.inject({ url: `/checkout${gateway.href.slice(CHECKOUT_URL.length)}` })).body
    expect(html).toContain(`/logos/${merchant.iconUrl?.split('/').at(-2)}/192.webp`)
    expect((await served(merchant.iconUrl ?? '')).rawPayload.equals(before)).toBe(true)
    expect(logos.hits('/replaced.png')).toBe(1)

    const patched = MerchantResponse.parse((await update(merchant.id, { iconUrl: logos.url('/replaced.png') })).json()).merchant
    expect(patched.iconUrl).not.toBe(merchant.iconUrl)
    expect((await served(patched.iconUrl ?? '')).rawPayload.equals(before)).toBe(false)
  })

  it('keeps transparency, and null removes the logo', async () => {
    logos.serve('/alpha.webp', await logoImage(600, 600, { format: 'webp', alpha: true }))
    const { merchant } = MerchantResponse.parse((await create(logos.url('/alpha.webp'))).json())
    expect((await sharp((await served(merchant.iconUrl ?? '')).rawPayload).metadata()).hasAlpha).toBe(true)
    const removed = await update(merchant.id, { iconUrl: null })
    expect(MerchantResponse.parse(removed.json()).merchant.iconUrl).toBeNull()
  })

  it('shows in listing rows as the merchant summary', async () => {
    logos.serve('/tea.jpg', await logoImage(700, 700, { format: 'jpeg' }))
    const patched = MerchantResponse.parse((await update(account.merchantId, { iconUrl: logos.url('/tea.jpg') })).json()).merchant
    await ctx.app.inject({ method: 'POST', url: '/v1/merchant/payment', headers: account.headers, payload: createBody() })
    const listed = PaymentListResponse.parse((await ctx.app.inject({ url: '/v1/payments', headers: { 'api-key': account.apiKey } })).json())
    expect(listed.data[0]?.merchant).toEqual({ id: account.merchantId, name: 'Shop', iconUrl: patched.iconUrl })
  })
})

describe('a refused logo', () => {
  it.each([
    ['too small', () => logoImage(480), 'the image is 480×480 px; the minimum is 500×500'],
    ['not square', () => logoImage(1000, 600), 'the image is 1000×600 px; it must be square within 5 %'],
    ['an SVG named .png', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"/>'), 'SVG'],
    ['an HTML page named .png', async () => Buffer.from('<!doctype html><title>x</title>'), 'HTML'],
  ])('%s is a 400 on iconUrl saying what was wrong', async (_, image, message) => {
    logos.serve('/bad.png', await image(), { 'content-type': 'image/png' })
    expect(await refusal(logos.url('/bad.png'))).toContain(message)
  })

  it('is a 400 when the server answers an error or sends a compressed body', async () => {
    expect(await refusal(logos.url('/nowhere.png'))).toContain('404')
    logos.serve('/gz.png', await logoImage(600), { 'content-encoding': 'gzip' })
    expect(await refusal(logos.url('/gz.png'))).toContain('gzip')
  })

  it('changes nothing on PATCH', async () => {
    logos.serve('/good.png', await logoImage(600))
    const { merchant } = MerchantResponse.parse((await create(logos.url('/good.png'))).json())
    logos.serve('/small.png', await logoImage(100))
    const response = await update(merchant.id, { merchantName: 'Renamed', iconUrl: logos.url('/small.png') })
    expect(response.statusCode).toBe(400)
    const [row] = await ctx.tdb.db.query<{ name: string; logo_digest: string }>('SELECT name, logo_digest FROM merchants WHERE id = $1', [
      merchant.id,
    ])
    expect(row?.name).toBe('Till Tea')
    expect(merchant.iconUrl).toContain(row?.logo_digest)
  })
})

describe("Till's logo URLs", () => {
  it('answer 404 for an unknown digest or size', async () => {
    for (const path of [
      `/checkout/logos/${'0'.repeat(64)}/512.webp`,
      '/checkout/logos/nope/512.webp',
      `/checkout/logos/${'0'.repeat(64)}/x.svg`,
    ]) {
      expect((await ctx.app.inject({ url: path })).statusCode, path).toBe(404)
    }
  })
})
