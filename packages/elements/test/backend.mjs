// A scripted merchant backend, served by web-test-runner's dev server (Koa middleware) on the tests' own
// origin: the elements under test talk real HTTP to it.
//
//   POST /test-backend/scenarios        { replies: Reply[] } → { id }
//   ANY  /test-backend/s/<id>[?…]       records the request, answers the next scripted reply (the last repeats)
//   GET  /test-backend/log/<id>         → { requests: Recorded[] }
//   POST /test-backend/gates            → { id }: a gate, closed
//   POST /test-backend/gates/<id>/open  opens it: what waits at it goes on
//   GET  /test-backend/page?action=…&define=1
//                                       a storefront page with a fallback-form <pay-button>, with or without the
//                                       element defined (for tests that need a page to navigate away)
//   GET  /test-backend/gateway[?gate=id] a stand-in checkout page, answered once the gate is open
//
// Reply: { status = 200, body?, text?, gate?, location?, destroy? }. `body` is sent as JSON, `text` as
// text/html; `gate` holds the answer until that gate is open (a slow backend whose answer the test
// releases, instead of a delay that a slow machine could outlast); `location` sets the Location header
// (for the no-JavaScript 303); `destroy` drops the connection.
// Recorded: { method, url, contentType, accept, body } with `url` the path and query.

/** @typedef {{ status?: number; body?: unknown; text?: string; gate?: string; location?: string; destroy?: boolean }} Reply */
/** @typedef {{ method: string; url: string; contentType: string | null; accept: string | null; body: string }} Recorded */

/** A promise the test resolves by opening it. */
function newGate() {
  let open = () => {}
  const opened = new Promise((resolve) => (open = resolve))
  return { opened, open }
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

// The README's recipe for the no-JavaScript form: it takes the room the element will take once defined.
const UNDEFINED_STYLE = `pay-button:not(:defined){display:inline-block}
pay-button:not(:defined) form{margin:0}
pay-button:not(:defined) button{border:0;font:inherit;padding:.6em 1.2em;border-radius:.375em;color:#fff;background:#1d4ed8}
pay-button:not(:defined)::after{content:"";display:block;margin-top:.25em;min-height:1lh}`

function storefront(action, define) {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop</title><style>${UNDEFINED_STYLE}</style>${define ? '<script type="module" src="/src/define/pay-button.ts"></script>' : ''}</head>
<body>
<pay-button>
  <form method="post" action="${escapeHtml(action)}">
    <input type="hidden" name="orderId" value="ord_page">
    <button type="submit">Pay €5.00</button>
  </form>
</pay-button>
<p>Free returns within 30 days.</p>
</body>
</html>`
}

/** @returns {import('koa').Middleware} */
export function testBackend() {
  /** @type {Map<string, { replies: Reply[]; requests: Recorded[] }>} */
  const scenarios = new Map()
  /** @type {Map<string, ReturnType<typeof newGate>>} */
  const gates = new Map()
  let next = 0
  // An unknown gate never opens: a typo in a test then hangs it, visibly, instead of passing.
  const passGate = async (id) => {
    if (id) await (gates.get(String(id)) ?? newGate()).opened
  }

  return async (ctx, nextMiddleware) => {
    const path = ctx.path
    if (!path.startsWith('/test-backend/')) return nextMiddleware()

    if (path === '/test-backend/scenarios' && ctx.method === 'POST') {
      const { replies } = JSON.parse(await readBody(ctx.req))
      const id = `s${++next}`
      scenarios.set(id, { replies, requests: [] })
      ctx.body = { id }
      return
    }

    if (path === '/test-backend/gates' && ctx.method === 'POST') {
      const id = `g${++next}`
      gates.set(id, newGate())
      ctx.body = { id }
      return
    }

    const opening = path.match(/^\/test-backend\/gates\/([\w-]+)\/open$/)
    if (opening && ctx.method === 'POST') {
      gates.get(opening[1])?.open()
      ctx.body = { open: gates.has(opening[1]) }
      return
    }

    const log = path.match(/^\/test-backend\/log\/([\w-]+)$/)
    if (log) {
      ctx.body = { requests: scenarios.get(log[1])?.requests ?? [] }
      return
    }

    if (path === '/test-backend/page') {
      ctx.type = 'text/html'
      ctx.body = storefront(String(ctx.query.action ?? ''), ctx.query.define === '1')
      return
    }

    if (path === '/test-backend/gateway') {
      await passGate(ctx.query.gate)
      ctx.type = 'text/html'
      ctx.body = '<!doctype html><title>Checkout</title><h1>Checkout</h1>'
      return
    }

    const scripted = path.match(/^\/test-backend\/s\/([\w-]+)$/)
    const scenario = scripted ? scenarios.get(scripted[1]) : undefined
    if (!scenario) {
      ctx.status = 404
      ctx.body = { message: 'No such scenario', code: 'not_found' }
      return
    }
    scenario.requests.push({
      method: ctx.method,
      url: ctx.url,
      contentType: ctx.get('content-type') || null,
      accept: ctx.get('accept') || null,
      body: await readBody(ctx.req),
    })
    const reply = scenario.replies[Math.min(scenario.requests.length, scenario.replies.length) - 1] ?? {}
    await passGate(reply.gate)
    if (reply.destroy) {
      ctx.status = 204 // not Koa's default 404, which wtr would list as a missing file
      ctx.req.socket.destroy()
      ctx.respond = false
      return
    }
    ctx.status = reply.status ?? 200
    if (reply.location) ctx.set('location', reply.location)
    if (reply.text !== undefined) {
      ctx.type = 'text/html'
      ctx.body = reply.text
    } else if (reply.body !== undefined) {
      ctx.type = 'application/json'
      ctx.body = JSON.stringify(reply.body)
    } else ctx.body = ''
  }
}
