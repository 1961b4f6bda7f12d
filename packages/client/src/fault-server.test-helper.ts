// A real HTTP server on 127.0.0.1 that misbehaves on purpose, one scripted answer per request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

export type Received = { method: string; url: string; headers: IncomingMessage['headers']; body: string }

/** Answers request number `n` (from 0); it may also never answer. */
export type Script = (res: ServerResponse, n: number, req: Received) => void

export type FaultServer = {
  url: string
  requests: Received[]
  /** Sets the answers: the i-th function answers the i-th request, the last one every later request. */
  script(...answers: Script[]): void
  /** Resolves once `count` requests have arrived since the last `script`: a test's cue, instead of a wait. */
  received(count: number): Promise<void>
  close(): Promise<void>
}

export async function startFaultServer(): Promise<FaultServer> {
  const requests: Received[] = []
  const sockets = new Set<Socket>()
  let answers: Script[] = []
  let waiters: { count: number; resolve: () => void }[] = []
  const wake = () => {
    waiters = waiters.filter((waiter) => {
      if (requests.length < waiter.count) return true
      waiter.resolve()
      return false
    })
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() }
      const n = requests.push(received) - 1
      wake()
      const answer = answers[Math.min(n, answers.length - 1)]
      if (answer) answer(res, n, received)
      else json(500, { message: 'no script', code: 'internal_error' })(res, n, received)
    })
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(...next) {
      answers = next
      requests.length = 0
    },
    received(count) {
      return new Promise<void>((resolve) => {
        waiters.push({ count, resolve })
        wake()
      })
    },
    async close() {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Answers with a JSON body. */
export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Script =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json', 'pay-version': '2026-02-18', ...headers })
    res.end(typeof body === 'string' ? body : JSON.stringify(body))
  }

/** Answers with any body and content type. */
export const raw =
  (status: number, contentType: string, body: string): Script =>
  (res) => {
    res.writeHead(status, { 'content-type': contentType })
    res.end(body)
  }

/** Never answers: the request hangs until the client gives up. */
export const silence: Script = () => {}

/** Sends the headers and the start of a body, then never the rest. */
export const stall: Script = (res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
  res.write('{"status":')
}

/** Sends the headers and half a body, then resets the connection. */
export const reset: Script = (res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
  res.write('{"status":"pen', () => res.socket?.resetAndDestroy())
}
