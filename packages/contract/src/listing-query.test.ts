import { describe, expect, it } from 'vitest'
import { toErrorIssues } from './errors.ts'
import { compareInstants, listingQueryErrorCode, PaymentListQuery, type RawQuery } from './listing-query.ts'

function parse(query: RawQuery) {
  return PaymentListQuery.parse(query)
}

function problems(query: RawQuery) {
  const result = PaymentListQuery.safeParse(query)
  if (result.success) throw new Error(`expected ${JSON.stringify(query)} to be refused`)
  return toErrorIssues(result.error, 'query')
}

const fieldsOf = (query: RawQuery) => problems(query).map((i) => i.field)

describe('PaymentListQuery defaults', () => {
  it('fills sortBy, sortDir and limit and nothing else', () => {
    expect(parse({})).toEqual({ sortBy: 'date', sortDir: 'desc', limit: 50 })
  })

  it('treats undefined values as absent', () => {
    expect(parse({ cursor: undefined, limit: undefined })).toEqual({ sortBy: 'date', sortDir: 'desc', limit: 50 })
  })
})

describe('limit', () => {
  it.each([
    ['1', 1],
    ['50', 50],
    ['199', 199],
    ['200', 200],
  ])('accepts %s', (raw, value) => {
    expect(parse({ limit: raw }).limit).toBe(value)
  })

  it.each(['0', '201', '1000', '1.5', 'abc', '-1', '+5', '05', ' 5', '', '1e2', '0x10', '99999999999999999999'])('refuses %j', (raw) => {
    expect(problems({ limit: raw })).toEqual([{ field: 'limit', message: 'must be an integer from 1 to 200' }])
  })

  it('refuses a repeated limit', () => {
    expect(problems({ limit: ['5', '6'] })).toEqual([{ field: 'limit', message: 'must be given at most once' }])
  })
})

describe('sortBy and sortDir', () => {
  it('accepts the documented values', () => {
    expect(parse({ sortBy: 'amount', sortDir: 'asc' })).toMatchObject({ sortBy: 'amount', sortDir: 'asc' })
  })

  it.each([
    [{ sortBy: 'createdAt' }, 'sortBy'],
    [{ sortBy: 'DATE' }, 'sortBy'],
    [{ sortDir: 'descending' }, 'sortDir'],
    [{ sortDir: ['asc', 'desc'] }, 'sortDir'],
  ])('refuses %j', (query, field) => {
    expect(fieldsOf(query)).toEqual([field])
  })
})

describe('repeatable parameters', () => {
  it('turn a single value into a one-element array', () => {
    expect(parse({ status: 'succeeded', merchantId: 'm1', token_symbol: 'USDC' })).toMatchObject({
      status: ['succeeded'],
      merchantId: ['m1'],
      token_symbol: ['USDC'],
    })
  })

  it('keep repeated values in order', () => {
    expect(parse({ status: ['failed', 'succeeded'], merchantId: ['m2', 'm1'], token_symbol: ['USDC', 'ETH'] })).toMatchObject({
      status: ['failed', 'succeeded'],
      merchantId: ['m2', 'm1'],
      token_symbol: ['USDC', 'ETH'],
    })
  })

  it('check each status', () => {
    expect(fieldsOf({ status: ['succeeded', 'pending'] })).toEqual(['status[1]'])
    expect(fieldsOf({ status: 'paid' })).toEqual(['status[0]'])
    expect(parse({ status: ['requires_action', 'cancelled'] }).status).toEqual(['requires_action', 'cancelled'])
  })

  it('refuse empty merchant ids and token symbols', () => {
    expect(fieldsOf({ merchantId: ['m1', ''] })).toEqual(['merchantId[1]'])
    expect(fieldsOf({ token_symbol: '' })).toEqual(['token_symbol[0]'])
  })

  it.each(['eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', 'caip19/eip155:1/slip44:60', 'eip155:1/slip44:60'])(
    'refuse the CAIP-19 id %s as a token symbol',
    (value) => {
      expect(problems({ token_symbol: ['USDC', value] })).toEqual([
        { field: 'token_symbol[1]', message: 'CAIP-19 identifiers are not supported; give a token symbol such as USDC' },
      ])
    },
  )
})

describe('network', () => {
  it('splits a comma-separated CAIP-2 list', () => {
    expect(parse({ network: 'eip155:1' }).network).toEqual(['eip155:1'])
    expect(parse({ network: 'eip155:1,eip155:8453,solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' }).network).toEqual([
      'eip155:1',
      'eip155:8453',
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    ])
  })

  it.each([
    ['eip155:1,,eip155:2', 'network[1]'],
    ['eip155:1,', 'network[1]'],
    ['', 'network[0]'],
    ['1', 'network[0]'],
    ['eip155:1, eip155:2', 'network[1]'],
    ['eip155', 'network[0]'],
  ])('refuses %j at %s', (network, field) => {
    expect(fieldsOf({ network })).toEqual([field])
  })

  it('refuses a repeated network and says to use commas', () => {
    expect(problems({ network: ['eip155:1', 'eip155:2'] })).toEqual([{ field: 'network', message: 'must be given at most once' }])
  })
})

describe('referenceId', () => {
  it.each(['abc', 'ORD-2026/01:02.03,04+05 x', 'a'.repeat(35)])('accepts %j', (referenceId) => {
    expect(parse({ referenceId }).referenceId).toBe(referenceId)
  })

  it.each([
    ['ab', 'must be at least 3 characters long'],
    ['a'.repeat(36), 'must be at most 35 characters long'],
    ['order_1', 'may contain only ASCII letters, digits, space and / - : . , +'],
    ['order#1', 'may contain only ASCII letters, digits, space and / - : . , +'],
    ['ordér', 'may contain only ASCII letters, digits, space and / - : . , +'],
    ['ord\ner', 'may contain only ASCII letters, digits, space and / - : . , +'],
  ])('refuses %j: %s', (referenceId, message) => {
    expect(problems({ referenceId })).toEqual([{ field: 'referenceId', message }])
  })
})

describe('startTs and endTs', () => {
  it.each(['2026-02-18T00:00:00Z', '2026-02-18T00:00:00.123Z', '2026-02-18T09:00:00+09:00', '2026-02-17T19:00:00-05:00'])(
    'accept %s',
    (ts) => {
      expect(parse({ startTs: ts }).startTs).toBe(ts)
    },
  )

  it.each([
    '2026-02-18T00:00:00',
    '2026-02-18',
    '2026-02-18T00:00Z',
    '2026-02-30T00:00:00Z',
    'yesterday',
    '1771372800',
    '2026-02-18T00:00:00+0900',
  ])('refuse %j (RFC 3339 needs a full time and an offset)', (ts) => {
    expect(fieldsOf({ startTs: ts })).toEqual(['startTs'])
    expect(fieldsOf({ endTs: ts })).toEqual(['endTs'])
  })

  it('require endTs after startTs', () => {
    expect(parse({ startTs: '2026-02-18T00:00:00Z', endTs: '2026-02-18T00:00:01Z' }).endTs).toBe('2026-02-18T00:00:01Z')
    expect(problems({ startTs: '2026-02-18T00:00:00Z', endTs: '2026-02-18T00:00:00Z' })).toEqual([
      { field: 'endTs', message: 'must be later than startTs' },
    ])
    expect(fieldsOf({ startTs: '2026-02-18T00:00:00Z', endTs: '2026-02-17T00:00:00Z' })).toEqual(['endTs'])
  })

  it('compare instants across offsets, not strings', () => {
    // 09:00+09:00 is midnight UTC, so an end at 01:00Z is later even though it sorts earlier as text.
    expect(parse({ startTs: '2026-02-18T09:00:00+09:00', endTs: '2026-02-18T01:00:00Z' }).endTs).toBe('2026-02-18T01:00:00Z')
    expect(fieldsOf({ startTs: '2026-02-18T01:00:00Z', endTs: '2026-02-18T09:00:00+09:00' })).toEqual(['endTs'])
  })

  it('accept only one bound', () => {
    expect(parse({ endTs: '2026-02-18T00:00:00Z' }).startTs).toBeUndefined()
  })

  it('refuse repeated timestamps', () => {
    expect(problems({ startTs: ['2026-02-18T00:00:00Z', '2026-02-19T00:00:00Z'] })).toEqual([
      { field: 'startTs', message: 'must be given at most once' },
    ])
  })
})

describe('compareInstants', () => {
  it('orders beyond millisecond precision', () => {
    expect(compareInstants('2026-02-18T00:00:00.0002Z', '2026-02-18T00:00:00.0001Z')).toBeGreaterThan(0)
    expect(compareInstants('2026-02-18T00:00:00.0001Z', '2026-02-18T00:00:00.0002Z')).toBeLessThan(0)
    expect(compareInstants('2026-02-18T00:00:00.1Z', '2026-02-18T00:00:00.100000Z')).toBe(0)
    expect(compareInstants('2026-02-18T01:00:00+01:00', '2026-02-18T00:00:00Z')).toBe(0)
  })
})

describe('other parameters', () => {
  it('pass cursor and asset through', () => {
    expect(parse({ cursor: 'eyJpZCI6MX0', asset: 'USDC' })).toMatchObject({ cursor: 'eyJpZCI6MX0', asset: 'USDC' })
  })

  it('refuse empty or repeated cursor and asset', () => {
    expect(fieldsOf({ cursor: '' })).toEqual(['cursor'])
    expect(fieldsOf({ cursor: ['a', 'b'] })).toEqual(['cursor'])
    expect(fieldsOf({ asset: '' })).toEqual(['asset'])
  })

  it('refuse unknown parameters so that typos surface', () => {
    expect(problems({ limt: '5' })).toEqual([{ field: 'limt', message: 'is not recognised; check the spelling' }])
    expect(fieldsOf({ tokenSymbol: 'USDC', status: 'failed' })).toEqual(['tokenSymbol'])
    expect(fieldsOf({ StartTs: '2026-02-18T00:00:00Z' })).toEqual(['StartTs'])
  })

  it('report every problem at once', () => {
    expect(fieldsOf({ limit: '0', sortBy: 'x', referenceId: 'a', extra: '1' })).toEqual(['sortBy', 'limit', 'referenceId', 'extra'])
  })
})

describe('listingQueryErrorCode', () => {
  const codeOf = (query: RawQuery) => {
    const result = PaymentListQuery.safeParse(query)
    if (result.success) throw new Error(`expected ${JSON.stringify(query)} to be refused`)
    return listingQueryErrorCode(result.error)
  }

  it('says params_validation when every value is well formed but breaks a rule', () => {
    expect(codeOf({ limit: '500' })).toBe('params_validation')
    expect(codeOf({ limit: '0' })).toBe('params_validation')
    expect(codeOf({ referenceId: 'ab' })).toBe('params_validation')
    expect(codeOf({ referenceId: 'a'.repeat(36) })).toBe('params_validation')
    expect(codeOf({ referenceId: 'order#1' })).toBe('params_validation')
    expect(codeOf({ token_symbol: 'eip155:1/erc20:0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' })).toBe('params_validation')
    expect(codeOf({ startTs: '2026-02-18T00:00:00Z', endTs: '2026-02-18T00:00:00Z' })).toBe('params_validation')
    expect(codeOf({ limit: '500', referenceId: 'ab' })).toBe('params_validation')
  })

  it('says invalid_params as soon as one value cannot be read', () => {
    expect(codeOf({ limit: 'ten' })).toBe('invalid_params')
    expect(codeOf({ limit: '1.5' })).toBe('invalid_params')
    expect(codeOf({ startTs: 'yesterday' })).toBe('invalid_params')
    expect(codeOf({ sortBy: 'price' })).toBe('invalid_params')
    expect(codeOf({ status: 'paid' })).toBe('invalid_params')
    expect(codeOf({ network: 'ethereum' })).toBe('invalid_params')
    expect(codeOf({ limt: '5' })).toBe('invalid_params')
    expect(codeOf({ limit: ['1', '2'] })).toBe('invalid_params')
    expect(codeOf({ limit: '500', startTs: 'yesterday' })).toBe('invalid_params')
  })
})
