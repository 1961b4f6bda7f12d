import pg from 'pg'
import type { SubscriptionHandlers } from './port.ts'

const RECONNECT_MIN_MS = 100
const RECONNECT_MAX_MS = 2_000

/**
 * One dedicated connection that LISTENs on every channel subscribed to, reconnecting with backoff while
 * anyone listens. One per database rather than one per channel: each connection is a PostgreSQL backend
 * (about 13 MB) and counts against the server's `max_connections` for every Till instance.
 *
 * Every subscriber is told `lost` once per drop, however many attempts the reconnection takes, and
 * `connected` once its channel is listened to again. Subscribing, unsubscribing and reconnecting take turns,
 * so a channel is never left out of a LISTEN that a reconnection issues.
 */
export function listener(config: pg.ClientConfig, answerWithinMs: number) {
  const subscribers = new Map<string, Set<SubscriptionHandlers>>()
  let client: pg.Client | undefined
  let reconnecting = false
  let retryMs = RECONNECT_MIN_MS
  let retryTimer: NodeJS.Timeout | undefined
  let turn: Promise<unknown> = Promise.resolve()

  const inTurn = <T>(task: () => Promise<T>): Promise<T> => {
    const run = turn.then(task)
    turn = run.catch(() => {})
    return run
  }
  const everyone = () => [...subscribers.values()].flatMap((handlers) => [...handlers])
  const listen = (target: pg.Client, verb: 'LISTEN' | 'UNLISTEN', channels: string[]) =>
    target.query({
      // One statement per channel in one round trip; escapeIdentifier makes any channel name safe.
      text: channels.map((channel) => `${verb} ${pg.escapeIdentifier(channel)}`).join('; '),
      ...(answerWithinMs ? { query_timeout: answerWithinMs } : {}),
    })

  /** A new connection listening on every channel subscribed to now. */
  const connect = async (): Promise<pg.Client> => {
    const next = new pg.Client(config)
    next.on('notification', (message) => {
      if (message.payload === undefined) return
      for (const handlers of subscribers.get(message.channel) ?? []) handlers.message(message.payload)
    })
    next.on('error', (error) => dropped(next, error))
    next.on('end', () => dropped(next, new Error('listening connection ended')))
    try {
      await next.connect()
      await listen(next, 'LISTEN', [...subscribers.keys()].sort())
    } catch (error) {
      await next.end().catch(() => {})
      throw error
    }
    return next
  }

  const dropped = (which: pg.Client, error: unknown) => {
    if (client !== which) return
    client = undefined
    reconnecting = true
    for (const handlers of everyone()) handlers.lost(error)
    which.end().catch(() => {})
    scheduleRetry()
  }

  const scheduleRetry = () => {
    retryTimer = setTimeout(() => {
      void inTurn(async () => {
        if (!reconnecting) return
        try {
          client = await connect()
        } catch {
          retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS)
          scheduleRetry()
          return
        }
        reconnecting = false
        retryMs = RECONNECT_MIN_MS
        for (const handlers of everyone()) handlers.connected()
      })
    }, retryMs)
    retryTimer.unref()
  }

  /** Stops listening on `channel` for `handlers`; the connection closes with its last subscriber. */
  const unsubscribe = (channel: string, handlers: SubscriptionHandlers) =>
    inTurn(async () => {
      const set = subscribers.get(channel)
      if (!set?.delete(handlers) || set.size > 0) return
      subscribers.delete(channel)
      if (subscribers.size === 0) {
        clearTimeout(retryTimer)
        reconnecting = false
        const last = client
        client = undefined
        await last?.end().catch(() => {})
      } else if (client) {
        await listen(client, 'UNLISTEN', [channel]).catch(() => {})
      }
    })

  /**
   * Listens on `channel`; resolves once its messages will arrive (or, while the connection is being
   * re-established, once `lost` has told so). Rejects if the first connection cannot be made.
   */
  const subscribe = (channel: string, handlers: SubscriptionHandlers): Promise<() => Promise<void>> =>
    inTurn(async () => {
      const set = subscribers.get(channel) ?? new Set<SubscriptionHandlers>()
      const first = set.size === 0
      set.add(handlers)
      subscribers.set(channel, set)
      const done = () => unsubscribe(channel, handlers)
      if (reconnecting) {
        handlers.lost(new Error('the listening connection is reconnecting'))
        return done
      }
      if (client === undefined) {
        try {
          client = await connect()
        } catch (error) {
          subscribers.delete(channel)
          throw error
        }
      } else if (first) {
        const current = client
        // A failure here is the connection's: it is dropped, and the reconnection listens on this channel too.
        try {
          await listen(current, 'LISTEN', [channel])
        } catch (error) {
          dropped(current, error)
          return done
        }
      }
      handlers.connected()
      return done
    })

  return { subscribe }
}
