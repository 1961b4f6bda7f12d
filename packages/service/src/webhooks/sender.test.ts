// The webhook sender against the HTTPS test receiver on 127.0.0.1 (as hooks.corner-shop.com through an
// injected lookup): what one attempt returns when the endpoint answers, is not there, redirects, is not
// public, or never answers, and which connections attempts share. The dispatcher turns any result but a
// 2xx into a failed attempt.
import net from 'node:net'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { RECEIVER_HOST, startWebhookReceiver } from '../../test/webhook-receiver.ts'
import { type SendResult, type WebhookSendOptions, webhookSender } from './sender.ts'

const receiver = await startWebhookReceiver()
afterAll(() => receiver.close())

beforeEach(() => {
  receiver.received.length = 0
  receiver.answer()
})

const port = Number(new URL(receiver.url()).port)
const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': '1700000000', 'webhook-signature': 'v1,c2lnbmF0dXJl' }
const body = '{"type":"payment.failed"}'

/** A sandbox sender (loopback allowed) trusting the receiver, with every dial recorded. */
function senderWith(options: Partial<WebhookSendOptions> = {}) {
  const dials: [string, number][] = []
  const send = webhookSender({
    policy: { allowLoopback: true },
    lookup: receiver.lookup,
    ca: [receiver.ca],
    onDial: (address, dialPort) => {
      dials.push([address, dialPort])
    },
    ...options,
  })
  return { send, dials }
}

/** A loopback port nothing listens on: bound by the system, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port: free } = server.address() as net.AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return free
}

/** The attempt's outcome without its latency, once the latency is checked to be whole milliseconds. */
function timed(result: SendResult): Omit<SendResult, 'latencyMs'> {
  expect(Number.isInteger(result.latencyMs) && result.latencyMs >= 0, `latency ${result.latencyMs}`).toBe(true)
  const { latencyMs: _latency, ...rest } = result
  return rest
}

describe('one attempt', () => {
  it('POSTs the body with the signature headers to the checked address, and reports a 2xx', async () => {
    const { send, dials } = senderWith()
    const result = await send(receiver.url(), headers, body)
    expect(timed(result)).toEqual({ statusCode: 200, error: null })
    expect(dials).toEqual([['127.0.0.1', port]])
    expect(receiver.received).toHaveLength(1)
    expect(receiver.received[0]).toMatchObject({
      path: '/webhooks',
      body,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Till-webhooks', host: `${RECEIVER_HOST}:${port}` },
    })
  })

  it('reports a refused connection as unreachable, with no status code', async () => {
    const free = await closedPort()
    const { send, dials } = senderWith()
    const result = await send(`https://${RECEIVER_HOST}:${free}/webhooks`, headers, body)
    expect(timed(result)).toEqual({
      statusCode: null,
      error: expect.stringMatching(/^could not reach the endpoint: .*ECONNREFUSED/),
    })
    expect(dials).toEqual([['127.0.0.1', free]])
  })

  it.each([301, 302, 307, 308])('does not follow a %i: the attempt ends with its status code', async (status) => {
    receiver.answer({ status, headers: { location: receiver.url('/elsewhere') } })
    const { send, dials } = senderWith()
    const result = await send(receiver.url(), headers, body)
    expect(timed(result)).toEqual({ statusCode: status, error: null })
    expect(receiver.received.map((request) => request.path)).toEqual(['/webhooks'])
    expect(dials).toHaveLength(1)
  })

  it.each([
    ['https://127.0.0.1:PORT/webhooks', {}, '127.0.0.1 is not a public address (loopback)'],
    [`https://${RECEIVER_HOST}:PORT/webhooks`, {}, `${RECEIVER_HOST} resolves to a loopback address, not a public one`],
    [
      'https://hooks.rebound-shop.com/webhooks',
      { lookup: async () => [{ address: '10.0.0.7', family: 4 as const }] },
      'hooks.rebound-shop.com resolves to a private address, not a public one',
    ],
    ['https://169.254.169.254/latest/meta-data/', {}, '169.254.169.254 is not a public address (linkLocal)'],
    ['http://127.0.0.1:PORT/webhooks', {}, 'the webhook URL must use https'],
  ])('refuses %s outside the sandbox without dialling it', async (url, options, message) => {
    const { send, dials } = senderWith({ policy: { allowLoopback: false }, ...options })
    const result = await send(url.replace('PORT', String(port)), headers, body)
    expect(timed(result)).toEqual({ statusCode: null, error: message })
    expect(dials).toEqual([])
    expect(receiver.received).toEqual([])
  })

  it('gives up on an endpoint that takes the request and never answers (the deadline, through the test signal)', async () => {
    receiver.answer('hang')
    const deadline = new AbortController()
    const { send } = senderWith({ signal: deadline.signal })
    const sending = send(receiver.url(), headers, body)
    // The request has arrived and is left unanswered: only the deadline can end the attempt now.
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1))
    deadline.abort()
    expect(timed(await sending)).toEqual({ statusCode: null, error: 'no answer within 10 s' })
  })
})

describe('connections between attempts', () => {
  /** A lookup that answers each call with the next list of addresses (the last one repeats), and counts. */
  function dnsAnswering(...answers: string[][]) {
    const asked: string[] = []
    const lookup = async (hostname: string) => {
      asked.push(hostname)
      const addresses = answers[Math.min(asked.length, answers.length) - 1] ?? []
      return addresses.map((address) => ({ address, family: 4 as const }))
    }
    return { lookup, asked }
  }

  it('keeps one connection alive for the attempts to a host, checking the host again at each', async () => {
    const dns = dnsAnswering(['127.0.0.1'])
    const { send, dials } = senderWith({ lookup: dns.lookup })
    for (let i = 0; i < 3; i++) {
      expect((await send(receiver.url(), headers, body)).statusCode).toBe(200)
      // undici takes a connection back into its pool a turn of the event loop after the answer: a request
      // sent sooner opens another (the dispatcher records the attempt in between, which takes longer).
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(dns.asked).toEqual([RECEIVER_HOST, RECEIVER_HOST, RECEIVER_HOST])
    expect(dials).toEqual([['127.0.0.1', port]])
    expect(receiver.received).toHaveLength(3)
  })

  it('refuses a host that now resolves to a non-public address, though a connection to its old address is open', async () => {
    const dns = dnsAnswering(['93.184.215.14'], ['10.0.0.7'])
    const dialled: [string, number][] = []
    const { send } = senderWith({
      policy: { allowLoopback: false },
      lookup: dns.lookup,
      onDial: (address, dialPort) => {
        dialled.push([address, dialPort])
        throw new Error('test: not leaving the machine')
      },
    })
    expect((await send(receiver.url(), headers, body)).error).toBe('could not reach the endpoint: test: not leaving the machine')
    expect((await send(receiver.url(), headers, body)).error).toBe(`${RECEIVER_HOST} resolves to a private address, not a public one`)
    expect(dialled).toEqual([['93.184.215.14', port]])
  })

  it('dials the new address of a host that resolves elsewhere now, never reusing the connection to the old one', async () => {
    const dns = dnsAnswering(['127.0.0.1'], ['127.0.0.2'])
    const { send, dials } = senderWith({ lookup: dns.lookup })
    expect((await send(receiver.url(), headers, body)).statusCode).toBe(200)
    // Nothing listens on 127.0.0.2: the attempt fails rather than going to 127.0.0.1 over the open connection.
    expect(await send(receiver.url(), headers, body)).toMatchObject({ statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) })
    expect(dials).toEqual([
      ['127.0.0.1', port],
      ['127.0.0.2', port],
    ])
    expect(receiver.received).toHaveLength(1)
  })
})
