import { once } from 'node:events'
import { connect } from 'node:net'
import type { FastifyInstance } from 'fastify'

export type RawResponse = { status: number; headers: Record<string, string>; body: string }

/** The port of an app listening on loopback for raw-socket tests (`app.listen({ port: 0, host: '127.0.0.1' })`). */
export function portOf(app: FastifyInstance): number {
  const address = app.server.address()
  if (!address || typeof address === 'string') throw new Error('the app is not listening on a TCP port')
  return address.port
}

/** Splits what a server sent into its responses; each must carry a Content-Length (Till's all do). */
export function parseResponses(raw: string): RawResponse[] {
  const responses: RawResponse[] = []
  let rest = raw
  for (;;) {
    const end = rest.indexOf('\r\n\r\n')
    if (end === -1) return responses
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n')
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
    }
    const length = Number(headers['content-length'] ?? 0)
    const bodyStart = end + 4
    if (rest.length < bodyStart + length) return responses
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(bodyStart, bodyStart + length) })
    rest = rest.slice(bodyStart + length)
  }
}

/**
 * A connection whose bytes the test writes exactly as they go on the wire, to requests no HTTP client
 * would send. `closed` settles when the server ends the connection, with everything it sent.
 */
export async function rawConnection(port: number) {
  const socket = connect({ port, host: '127.0.0.1' })
  await once(socket, 'connect')
  socket.setEncoding('latin1')
  let received = ''
  const waiters: Array<() => void> = []
  socket.on('data', (chunk: string) => {
    received += chunk
    for (const wake of waiters.splice(0)) wake()
  })
  // A reset from a server that has closed the connection still closes it, which is what is awaited.
  socket.on('error', () => {})
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)))
  let open = true
  void closed.then(() => {
    open = false
    for (const wake of waiters.splice(0)) wake()
  })

  return {
    socket,
    write: (data: string) => socket.write(data),
    closed,
    isOpen: () => open,
    /** Waits for `count` complete responses, or for the server to close the connection first. */
    async responses(count: number): Promise<RawResponse[]> {
      while (parseResponses(received).length < count && open) await new Promise<void>((wake) => waiters.push(wake))
      return parseResponses(received)
    },
    end: () => socket.destroy(),
  }
}

/** Sends `request` on a new connection and resolves, once the server has closed it, with its one response. */
export async function exchange(port: number, request: string): Promise<RawResponse & { raw: string }> {
  const connection = await rawConnection(port)
  connection.write(request)
  const raw = await connection.closed
  const [response] = parseResponses(raw)
  if (!response) throw new Error(`no complete response before the server closed the connection: ${JSON.stringify(raw)}`)
  return { ...response, raw }
}
