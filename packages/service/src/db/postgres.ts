import { createHash } from 'node:crypto'
import pg from 'pg'
import type { Database, Queryable, Row, SqlValue, SubscriptionHandlers } from './port.ts'

export type PostgresOptions = {
  url: string
  /** Pool size; the default suits a small server. */
  max?: number
  /** Sets search_path, which lets tests give each file its own schema. */
  schema?: string
}

const statementNames = new Map<string, string>()

/**
 * Parameterized queries run as named prepared statements: PostgreSQL parses and plans each one once per
 * connection instead of on every call (measured: 72 → 17 µs of server CPU for a payment read).
 */
function statementName(sql: string): string {
  let name = statementNames.get(sql)
  if (!name) {
    name = `till_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`
    statementNames.set(sql, name)
  }
  return name
}

const RECONNECT_MAX_MS = 5_000

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const config = {
    connectionString: options.url,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  }
  const pool = new pg.Pool({ ...config, max: options.max ?? 16 })
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {})
  // Fail at start-up, with the driver's own message, rather than on the first request.
  const probe = await pool.connect()
  probe.release()

  const asQueryable = (target: Pick<pg.Pool, 'query'>): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly SqlValue[] = []) {
      const result = await target.query<T>({ name: statementName(sql), text: sql, values: [...params] })
      return result.rows
    },
    async exec(sql: string) {
      // Without parameters node-postgres uses the simple protocol, which accepts several statements.
      await target.query(sql)
    },
  })
  return {
    ...asQueryable(pool),
    async transaction(work) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await work(asQueryable(client))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
    subscribe: (channel, handlers) => subscribe(config, channel, handlers),
    close: () => pool.end(),
  }
}

/** A dedicated connection that LISTENs on `channel`, reconnecting with backoff until unsubscribed. */
async function subscribe(config: pg.ClientConfig, channel: string, handlers: SubscriptionHandlers): Promise<() => Promise<void>> {
  let client: pg.Client | undefined
  let closed = false
  let retryMs = 100
  let retryTimer: NodeJS.Timeout | undefined

  const connect = async (): Promise<void> => {
    const next = new pg.Client(config)
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.message(message.payload)
    })
    next.on('error', (error) => dropped(next, error))
    next.on('end', () => dropped(next, new Error('listening connection ended')))
    await next.connect()
    await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
    if (closed) {
      await next.end()
      return
    }
    client = next
    retryMs = 100
    handlers.connected()
  }

  const dropped = (which: pg.Client, error: unknown) => {
    if (closed || client !== which) return
    client = undefined
    handlers.lost(error)
    scheduleRetry()
  }

  const scheduleRetry = () => {
    retryTimer = setTimeout(() => {
      connect().catch((error: unknown) => {
        handlers.lost(error)
        retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS)
        if (!closed) scheduleRetry()
      })
    }, retryMs)
    retryTimer.unref()
  }

  await connect()
  return async () => {
    closed = true
    clearTimeout(retryTimer)
    await client?.end().catch(() => {})
  }
}
