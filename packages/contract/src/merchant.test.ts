import { describe, expect, it } from 'vitest'
import { CreateMerchantRequest, LOGO_RULES, LogoUrl, Merchant, MerchantId, MerchantResponse, UpdateMerchantRequest } from './merchant.ts'

const valid = { merchantName: 'Corner Shop', merchantEmail: 'owner@corner.example', iconUrl: 'https://cdn.corner.example/logo.png' }

function messages(
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
) {
  const result = schema.safeParse(value)
  return (result.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('CreateMerchantRequest', () => {
  it('accepts a full body', () => {
    expect(CreateMerchantRequest.parse(valid)).toEqual(valid)
  })

  it('makes iconUrl optional', () => {
    const { iconUrl: _icon, ...rest } = valid
    expect(CreateMerchantRequest.parse(rest)).toEqual(rest)
  })

  it('requires name and email', () => {
    expect(CreateMerchantRequest.safeParse({ merchantEmail: valid.merchantEmail }).success).toBe(false)
    expect(CreateMerchantRequest.safeParse({ merchantName: valid.merchantName }).success).toBe(false)
  })

  it('trims the name and refuses one that is blank', () => {
    expect(CreateMerchantRequest.parse({ ...valid, merchantName: '  Corner Shop \n' }).merchantName).toBe('Corner Shop')
    expect(messages(CreateMerchantRequest, { ...valid, merchantName: '   ' })).toEqual(['merchantName: must not be empty'])
    expect(messages(CreateMerchantRequest, { ...valid, merchantName: '' })).toEqual(['merchantName: must not be empty'])
  })

  it('limits the name to 256 characters after trimming', () => {
    expect(CreateMerchantRequest.safeParse({ ...valid, merchantName: 'n'.repeat(256) }).success).toBe(true)
    expect(CreateMerchantRequest.safeParse({ ...valid, merchantName: ` ${'n'.repeat(256)} ` }).success).toBe(true)
    expect(messages(CreateMerchantRequest, { ...valid, merchantName: 'n'.repeat(257) })).toEqual([
      'merchantName: must be at most 256 characters long',
    ])
  })

  it('refuses control characters in the name', () => {
    expect(CreateMerchantRequest.safeParse({ ...valid, merchantName: 'Corner\u0007Shop' }).success).toBe(false)
  })

  it.each(['owner', 'owner@', '@corner.example', 'owner@corner', 'owner corner@x.example', 'a@b.c'])(
    'refuses the e-mail %j',
    (merchantEmail) => {
      expect(messages(CreateMerchantRequest, { ...valid, merchantEmail })).toEqual(['merchantEmail: must be a valid e-mail address'])
    },
  )

  it('accepts ordinary e-mail addresses', () => {
    for (const merchantEmail of ['a.b+tag@corner.example', 'x_y@sub.domain.io']) {
      expect(CreateMerchantRequest.safeParse({ ...valid, merchantEmail }).success).toBe(true)
    }
  })

  it.each([
    ['http://cdn.corner.example/logo.png', 'must use the https scheme'],
    ['https://user:pw@cdn.corner.example/logo.png', 'must not contain credentials'],
    ['/logo.png', 'must be an absolute URL'],
    [' https://cdn.corner.example/logo.png', 'must not start or end with whitespace'],
  ])('refuses the icon URL %j', (iconUrl, reason) => {
    expect(messages(CreateMerchantRequest, { ...valid, iconUrl })).toEqual([`iconUrl: ${reason}`])
  })

  it('refuses an icon URL over 2048 characters', () => {
    const iconUrl = `https://cdn.corner.example/${'a'.repeat(2048)}`
    expect(CreateMerchantRequest.safeParse({ ...valid, iconUrl }).success).toBe(false)
  })

  it('refuses a non-string icon URL', () => {
    expect(CreateMerchantRequest.safeParse({ ...valid, iconUrl: 5 }).success).toBe(false)
    expect(LogoUrl.safeParse(null).success).toBe(false)
  })

  it('takes null for no logo', () => {
    expect(CreateMerchantRequest.parse({ ...valid, iconUrl: null }).iconUrl).toBeNull()
  })

  it('leaves loopback and private hosts to the service, which knows whether it runs in sandbox', () => {
    expect(CreateMerchantRequest.safeParse({ ...valid, iconUrl: 'https://127.0.0.1:8443/logo.png' }).success).toBe(true)
  })
})

describe('UpdateMerchantRequest', () => {
  it.each([{ iconUrl: valid.iconUrl }, { iconUrl: null }, { merchantName: 'New' }, { merchantEmail: 'new@corner.example' }, valid])(
    'accepts %j',
    (body) => {
      expect(UpdateMerchantRequest.safeParse(body).success).toBe(true)
    },
  )

  it('requires at least one field', () => {
    expect(messages(UpdateMerchantRequest, {})).toEqual([
      ': must contain at least one of iconUrl, merchantName, merchantEmail, settlementAddresses',
    ])
    expect(UpdateMerchantRequest.safeParse({ unrelated: 1 }).success).toBe(false)
  })

  it('applies the creation rules to each field', () => {
    expect(UpdateMerchantRequest.safeParse({ iconUrl: 'http://x.example/logo.png' }).success).toBe(false)
    expect(UpdateMerchantRequest.safeParse({ merchantName: ' ' }).success).toBe(false)
    expect(UpdateMerchantRequest.safeParse({ merchantEmail: 'nope' }).success).toBe(false)
  })
})

describe('Merchant and MerchantResponse', () => {
  const merchant = {
    id: 'mer_1',
    name: 'Corner Shop',
    email: 'owner@corner.example',
    status: 'active',
    createdAt: '2026-02-18T10:00:00Z',
    iconUrl: null,
    settlementAddresses: [],
  }

  it('accept the create response of spec 2.4', () => {
    expect(MerchantResponse.parse({ merchant })).toEqual({ merchant })
  })

  it('refuse other statuses, local timestamps and missing fields', () => {
    expect(Merchant.safeParse({ ...merchant, status: 'disabled' }).success).toBe(false)
    expect(Merchant.safeParse({ ...merchant, createdAt: '2026-02-18T10:00:00' }).success).toBe(false)
    const { email: _email, ...noEmail } = merchant
    expect(Merchant.safeParse(noEmail).success).toBe(false)
    expect(MerchantResponse.safeParse(merchant).success).toBe(false)
  })

  it('MerchantId is 1 to 128 URL-safe characters', () => {
    expect(MerchantId.safeParse('mer_01-x').success).toBe(true)
    for (const id of ['', 'a'.repeat(129), 'mer 1', 'mer/1']) expect(MerchantId.safeParse(id).success).toBe(false)
  })
})

describe('LOGO_RULES', () => {
  it('carries the numbers of spec 8.2', () => {
    expect(LOGO_RULES).toMatchObject({
      minSize: 500,
      recommendedSize: 1024,
      maxSize: 4096,
      aspectRatioTolerance: 0.05,
      maxBytes: 2097152,
      formats: ['jpeg', 'png', 'webp', 'avif'],
      transparentFormats: ['png', 'webp'],
    })
  })
})

describe('settlementAddresses', () => {
  const base = 'eip155:8453:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
  it('takes one CAIP-10 account per network, and [] to clear them', () => {
    expect(
      UpdateMerchantRequest.parse({ settlementAddresses: [base, 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'] })
        .settlementAddresses,
    ).toHaveLength(2)
    expect(UpdateMerchantRequest.parse({ settlementAddresses: [] }).settlementAddresses).toEqual([])
  })

  it('refuses two accounts on one network, and what is not CAIP-10', () => {
    expect(messages(UpdateMerchantRequest, { settlementAddresses: [base, base.replace('0x83', '0x84')] })).toEqual([
      'settlementAddresses.1: a second account on eip155:8453; give one per network',
    ])
    expect(UpdateMerchantRequest.safeParse({ settlementAddresses: ['0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'] }).success).toBe(false)
  })
})
