// The merchant's endpoint in the webhook bench: the tests' HTTPS receiver, answering 200 at once, on a
// thread of its own so that its half of every TLS handshake does not run on the service's event loop (a
// merchant's server is elsewhere). Each arrival is posted with its time on the wall clock that both
// threads share (timeOrigin + now), and the payment it is about.
import { parentPort } from 'node:worker_threads'
import { startWebhookReceiver } from '../../test/webhook-receiver.ts'

export type FromReceiver =
  | { kind: 'ready'; port: number; ca: string }
  | { kind: 'arrival'; at: number; paymentId: string | null; webhookId: string | null }

const parent = parentPort
if (!parent) throw new Error('receiver-worker.ts runs as a worker thread')
const post = (message: FromReceiver) => parent.postMessage(message)

const receiver = await startWebhookReceiver({
  onReceived: (delivery) => {
    const at = performance.timeOrigin + performance.now()
    let paymentId: string | null = null
    try {
      paymentId = (JSON.parse(delivery.body) as { data?: { paymentId?: string } }).data?.paymentId ?? null
    } catch {
      // A baseline body need not be an event.
    }
    post({ kind: 'arrival', at, paymentId, webhookId: delivery.headers['webhook-id'] ?? null })
  },
})
// Nothing else is kept: 5,000 bodies would only grow the heap the bench's figures share.
setInterval(() => {
  receiver.received.length = 0
}, 1_000).unref()
post({ kind: 'ready', port: Number(new URL(receiver.url()).port), ca: receiver.ca })
parent.on('message', (message: unknown) => {
  if (message === 'close') void receiver.close().then(() => parent.close())
})
