import pg from 'pg'
import type { SubscriptionHandlers } from './port.ts'

const RECONNECT_MIN_MS = 100
const RECONNECT_MAX_MS = 2_000

/**
 * A dedicated connection that LISTENs on `channel`, reconnecting with backoff until unsubscribed. `lost`
 * is told once per drop, however many attempts the reconnection takes.
 */
export async function subscribe(
  config: pg.ClientConfig,
  channel: string,
  handlers: SubscriptionHandlers,
  answerWithinMs: number,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined
  let closed = false
  let retryMs = RECONNECT_MIN_MS
  let retryTimer: NodeJS.Timeout | undefined

  /**
   * Listens on a new connection; resolves false when unsubscribed meanwhile. The caller tells `connected`,
   * outside the retries: a retry must never open a second listening connection.
   */
  const connect = async (): Promise<boolean> => {
    const next = new pg.Client(config)
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.message(message.payload)
    })
    next.on('error', (error) => dropped(next, error))
    next.on('end', () => dropped(next, new Error('listening connection ended')))
    try {
      await next.connect()
      await next.query({ text: `LISTEN ${pg.escapeIdentifier(channel)}`, ...(answerWithinMs ? { query_timeout: answerWithinMs } : {}) })
    } catch (error) {
      await next.end().catch(() => {})
      throw error
    }
    if (closed) {
      await next.end()
      return false
    }
    client = next
    retryMs = RECONNECT_MIN_MS
    return true
  }

  const dropped = (which: pg.Client, error: unknown) => {
    if (closed || client !== which) return
    client = undefined
    handlers.lost(error)
    scheduleRetry()
  }

  const scheduleRetry = () => {
    retryTimer = setTimeout(() => {
      connect().then(
        (listening) => listening && handlers.connected(),
        () => {
          retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS)
          if (!closed) scheduleRetry()
        },
      )
    }, retryMs)
    retryTimer.unref()
  }

  if (await connect()) handlers.connected()
  return async () => {
    closed = true
    clearTimeout(retryTimer)
    await client?.end().catch(() => {})
  }
}
