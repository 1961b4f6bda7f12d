// The baseline: the least a Node `http` server can do per request, in its own process like the service.
// It prints the same kind of ready line as `till serve --json`, so one readiness check serves both.
import http from 'node:http'

const body = 'hello world'
const server = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length })
  response.end(body)
})

server.listen(0, '127.0.0.1', () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  process.stdout.write(`${JSON.stringify({ baseUrl: `http://127.0.0.1:${port}` })}\n`)
})

// Exit cleanly on the signals the bench (or a Ctrl-C) sends; keep-alive sockets must not hold us open.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.closeAllConnections()
    server.close(() => process.exit(0))
  })
}
