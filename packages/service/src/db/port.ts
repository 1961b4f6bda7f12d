/**
 * The thin database port every repository talks to, implemented by the PostgreSQL adapter
 * (`postgres.ts`) whether the server is Till's embedded one or an external one.
 */
export type SqlValue = string | number | boolean | null | Date | Uint8Array | readonly (string | number | null)[]

export type Row = Record<string, unknown>

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>
}

export interface Database extends Queryable {
  /** Runs `work` in one transaction; rolls back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
  /**
   * Listens for NOTIFY messages on `channel` sent by any connection, reconnecting when the connection
   * drops. Every channel shares one listening connection. Resolves with the unsubscribe function.
   */
  subscribe(channel: string, handlers: SubscriptionHandlers): Promise<() => Promise<void>>
  close(): Promise<void>
  /** The connection pool as it is now, for metrics; absent where there is no pool. */
  poolStats?(): PoolStats
}

export type PoolStats = {
  max: number
  /** Open connections, idle or busy. */
  total: number
  idle: number
  /** Queries waiting for a connection now. */
  waiting: number
  /** Queries so far that found every connection busy and the pool full. */
  waits: number
}

/**
 * The database cannot be reached right now: it is down, restarting or failing over, or the connection to it
 * broke. An outage, not a bug: requests answer 503 and background jobs try again at their next tick. A
 * write that was in flight may or may not have committed; every write Till retries is idempotent.
 */
export class DatabaseUnavailable extends Error {
  constructor(cause: unknown) {
    super(`the database is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause })
    this.name = 'DatabaseUnavailable'
  }
}

export type SubscriptionHandlers = {
  message(payload: string): void
  /** Listening (again): messages from now on will arrive. */
  connected(): void
  /** The listening connection is gone: messages may be missed until `connected` is called again. */
  lost(error: unknown): void
}
