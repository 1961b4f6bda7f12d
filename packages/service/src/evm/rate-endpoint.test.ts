// The rate endpoint is a real HTTP server on 127.0.0.1; fetchRates reaches it with Node's own fetch.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseEvmConfig } from './config.ts'
import { cachedEndpointRates, fetchRates, RateEndpointError } from './rate-endpoint.ts'
import { rateFor } from './quote.ts'

const GOOD = {
  rates: [
    { from: 'EUR', to: 'USDC', rate: '1.0842' },
    { from: 'XAU', to: 'PAXG', rate: '1' },
  ],
  asOf: '2025-06-01T12:00:00Z',
  provider: 'fields beyond rates and asOf are ignored',
}

const ANSWERS: Record<string, { status: number; body: string }> = {
  '/good': { status: 200, body: JSON.stringify(GOOD) },
  '/not-json': { status: 200, body: '<html>rates</html>' },
  '/float': { status: 200, body: JSON.stringify({ ...GOOD, rates: [{ from: 'EUR', to: 'USDC', rate: 1.0842 }] }) },
  '/no-time': { status: 200, body: JSON.stringify({ rates: GOOD.rates, asOf: '2025-06-01 12:00' }) },
  '/twice': { status: 200, body: JSON.stringify({ ...GOOD, rates: [...GOOD.rates, { from: 'EUR', to: 'USDC', rate: '1.1' }] }) },
  '/down': { status: 503, body: 'maintenance' },
}

let server: Server
let base = ''
const seen: (string | undefined)[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.headers.accept)
    if (request.url === '/slow') return // never answers: the timeout has to end it
    const answer = ANSWERS[request.url ?? ''] ?? { status: 404, body: 'no such rates' }
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

async function refusal(path: string, timeoutMs?: number): Promise<string> {
  const error = await fetchRates(`${base}${path}`, fetch, { timeoutMs }).catch((caught: unknown) => caught)
  if (!(error instanceof RateEndpointError)) throw new Error(`expected a RateEndpointError, got ${String(error)}`)
  return error.message.replace(base, '<base>')
}

describe('fetchRates', () => {
  it('reads the rates and the time they hold from, keeping pairs Till may not use', async () => {
    await expect(fetchRates(`${base}/good`, fetch)).resolves.toEqual({ endpoint: `${base}/good`, asOf: GOOD.asOf, rates: GOOD.rates })
    expect(seen.at(-1)).toBe('application/json')
  })

  it('prices from the answer the pairs it has, and nothing else', async () => {
    const usdc = { id: 'eip155:31337/erc20:0x5fbdb2315678afecb367f032d93f642f64180aa3', symbol: 'USDC', name: 'USD Coin', decimals: 6 }
    const network = { id: 'eip155:31337', rpcUrl: 'http://127.0.0.1:8545', confirmations: 1 }
    const config = parseEvmConfig({ networks: [network], tokens: [usdc], rates: { endpoint: `${base}/good` } }, 'test')
    const fetched = await fetchRates(config.rates.endpoint ?? '', fetch)
    expect(rateFor(config, 'EUR', 'USDC', fetched)).toEqual({ value: '1.0842', source: 'endpoint', asOf: GOOD.asOf })
    expect(rateFor(config, 'GBP', 'USDC', fetched)).toBeUndefined()
    expect(rateFor(config, 'XAU', 'PAXG', fetched)).toBeUndefined()
  })

  it('refuses an answer that is not JSON', async () => {
    expect(await refusal('/not-json')).toMatch(/^rate endpoint <base>\/not-json: did not answer JSON \(.+\)$/)
  })

  it('refuses JSON of the wrong shape, naming the field', async () => {
    expect(await refusal('/float')).toBe(
      'rate endpoint <base>/float: rates[0].rate: must be a decimal string such as "1.0842", not a JSON number (a float loses digits)',
    )
    expect(await refusal('/no-time')).toBe(
      'rate endpoint <base>/no-time: asOf: must be an RFC 3339 timestamp with an offset, e.g. 2025-06-01T12:00:00Z',
    )
    expect(await refusal('/twice')).toBe('rate endpoint <base>/twice: rates[2]: EUR to USDC is already rates[0]')
  })

  it('refuses an answer other than 200', async () => {
    expect(await refusal('/down')).toBe(
      'rate endpoint <base>/down: answered HTTP 503; it must answer 200 with { "rates": [...], "asOf": "..." }',
    )
  })

  it('gives up on an endpoint that does not answer in time, or cannot be reached', async () => {
    expect(await refusal('/slow', 200)).toMatch(/^rate endpoint <base>\/slow: could not be fetched \(.*(timeout|aborted).*\)$/i)
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const error = await fetchRates(`http://127.0.0.1:${port}/rates`, fetch).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(RateEndpointError)
    expect(String(error)).toMatch(/could not be fetched \(fetch failed: .*ECONNREFUSED/)
  })
})

describe('cachedEndpointRates', () => {
  it('asks the endpoint at most once a minute, and answers nothing (after saying why) while it fails', async () => {
    let now = 0
    const failures: unknown[] = []
    const asked = () => seen.length
    const good = cachedEndpointRates({ endpoint: `${base}/good`, now: () => now, onFailure: (error) => failures.push(error) })
    const before = asked()
    expect((await good())?.rates).toEqual(GOOD.rates)
    now += 59_999
    await good()
    expect(asked() - before).toBe(1)
    now += 1
    await good()
    expect(asked() - before).toBe(2)

    const down = cachedEndpointRates({ endpoint: `${base}/down`, now: () => now, onFailure: (error) => failures.push(error) })
    expect(await down()).toBeUndefined()
    expect(failures).toEqual([expect.any(RateEndpointError)])
    expect(await cachedEndpointRates({ endpoint: undefined, now: () => now, onFailure: () => {} })()).toBeUndefined()
  })
})
