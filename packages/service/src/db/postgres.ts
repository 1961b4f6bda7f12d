import { createHash } from 'node:crypto'
import pg from 'pg'
import { asDatabaseError, isConnectionLoss, isOverload, type OutageEvent, outageTracker } from './connection-loss.ts'
import { type Database, DatabaseUnavailable, type Queryable, type Row, type SqlValue } from './port.ts'
import { listener } from './subscription.ts'

export type { OutageEvent } from './connection-loss.ts'

export type PostgresOptions = {
  url: string
  /** Pool size; the default suits a small server. */
  max?: number
  /** Sets search_path, which lets tests give each file its own schema. */
  schema?: string
  /** Told once when the database stops answering, and once when it answers again. */
  onOutage?: (event: OutageEvent) => void
  /**
   * How long a statement may run (`query` and transactions; `exec`, for migrations and bulk work, has no
   * limit). The server cancels it then, and the caller gets DatabaseUnavailable (a 503); a few seconds
   * later the client gives up on a server that stopped answering without closing its sockets. 0: no limit.
   */
  queryTimeoutMs?: number
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

// Connecting, or waiting for a free pooled connection: a server that is down refuses at once, one that is
// unreachable is given up on well within a request's time.
const CONNECT_TIMEOUT_MS = 5_000
const QUERY_TIMEOUT_MS = 20_000
// The client's own deadline comes after the server's: it only ends waits for a server that is gone.
const ANSWER_MARGIN_MS = 5_000

export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const max = options.max ?? 16
  const statementTimeout = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS
  const answerWithinMs = statementTimeout ? statementTimeout + ANSWER_MARGIN_MS : 0
  const settings = [
    ...(options.schema ? [`-c search_path=${options.schema}`] : []),
    ...(statementTimeout ? [`-c statement_timeout=${statementTimeout}`] : []),
  ]
  const config: pg.ClientConfig = {
    connectionString: options.url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(settings.length ? { options: settings.join(' ') } : {}),
  }
  const pool = new pg.Pool({ ...config, max })
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {})
  // Fail at start-up, with the driver's own message, rather than on the first request.
  const probe = await pool.connect()
  probe.release()

  // A query that finds every connection busy and the pool full waits for one (counted for metrics).
  let waits = 0
  const noteCheckout = () => {
    if (pool.idleCount === 0 && pool.totalCount >= max) waits++
  }

  const outage = outageTracker(options.onOutage)
  const fail = (error: unknown): never => {
    const poolFull = pool.totalCount >= max
    // A busy server answers 503 too, but it is no outage: only a lost connection is logged as one.
    if (!isOverload(error, poolFull) && isConnectionLoss(error)) outage.down(error)
    throw asDatabaseError(error, poolFull)
  }
  const deadline = answerWithinMs ? { query_timeout: answerWithinMs } : {}
  const listening = listener(config, answerWithinMs)
  const statement = (text: string) => ({ text, ...deadline })

  /**
   * A pooled connection for `work` alone. While checked out a client has no pool listener: a FATAL between
   * two statements (the server shutting down) would otherwise be an uncaught 'error' event, which ends the
   * process. The connection goes back to the pool only if it is still sound and `work` kept it clean.
   */
  async function checkedOut<T>(work: (client: pg.PoolClient, discard: () => void) => Promise<T>): Promise<T> {
    noteCheckout()
    const client = await pool.connect().catch(fail)
    let broken = false
    const discard = () => {
      broken = true
    }
    client.on('error', discard)
    try {
      return await work(client, discard)
    } catch (error) {
      if (error instanceof DatabaseUnavailable) discard()
      throw error
    } finally {
      client.off('error', discard)
      client.release(broken)
    }
  }

  const asQueryable = (target: Pick<pg.Pool, 'query'>, inTransaction: boolean): Queryable => ({
    query<T extends Row>(sql: string, params: readonly SqlValue[] = []) {
      if (!inTransaction) noteCheckout()
      return target.query<T>({ name: statementName(sql), text: sql, values: [...params], ...deadline }).then((result) => {
        outage.up()
        return result.rows
      }, fail)
    },
    async exec(sql: string) {
      // Without parameters node-postgres uses the simple protocol, which accepts several statements.
      if (inTransaction) {
        await target.query('SET LOCAL statement_timeout = 0').catch(fail)
        await target.query(sql).catch(fail)
        return
      }
      await checkedOut(async (client, discard) => {
        try {
          await client.query('SET statement_timeout = 0')
          await client.query(sql)
          await client.query('RESET statement_timeout')
          outage.up()
        } catch (error) {
          // Its statement_timeout may still be off: not for the next caller.
          discard()
          fail(error)
        }
      })
    },
  })
  return {
    ...asQueryable(pool, false),
    transaction: (work) =>
      checkedOut(async (client, discard) => {
        await client.query(statement('BEGIN')).catch(fail)
        try {
          const result = await work(asQueryable(client, true))
          await client.query(statement('COMMIT')).catch(fail)
          return result
        } catch (error) {
          // A refusal rolls back; a lost connection has nothing left to roll back.
          if (!(error instanceof DatabaseUnavailable)) await client.query(statement('ROLLBACK')).catch(discard)
          throw error
        }
      }),
    subscribe: listening.subscribe,
    close: () => pool.end(),
    poolStats: () => ({ max, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, waits }),
  }
}
