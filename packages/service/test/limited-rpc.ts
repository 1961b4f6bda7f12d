import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A JSON-RPC endpoint in front of a real node that refuses eth_getLogs over more than `maxRange` blocks, as
 * hosted providers do ("block range too large", -32005), and counts the calls it saw. Everything else is
 * passed through as it is; `seen.calls` counts every method asked.
 */
export async function limitedRpc(upstream: string, maxRange: number) {
  const seen = { getLogs: 0, refused: 0, ranges: [] as [bigint, bigint][], calls: {} as Record<string, number> }
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const call = JSON.parse(body) as { id: number; method: string; params: { fromBlock: string; toBlock: string }[] }
    for (const one of Array.isArray(call) ? call : [call]) seen.calls[one.method] = (seen.calls[one.method] ?? 0) + 1
    if (!Array.isArray(call) && call.method === 'eth_getLogs') {
      seen.getLogs++
      const [filter] = call.params
      const from = BigInt(filter?.fromBlock ?? '0x0')
      const to = BigInt(filter?.toBlock ?? '0x0')
      if (to - from + 1n > BigInt(maxRange)) {
        seen.refused++
        response.setHeader('content-type', 'application/json')
        response.end(
          JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32005, message: `block range too large: at most ${maxRange}` } }),
        )
        return
      }
      seen.ranges.push([from, to])
    }
    const answer = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    response.setHeader('content-type', 'application/json')
    response.end(await answer.text())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
