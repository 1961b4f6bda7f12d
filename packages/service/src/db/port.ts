/**
 * The thin database port every repository talks to. Two adapters implement it — embedded PGlite and
 * a PostgreSQL server — and both speak the same SQL, so nothing above this file knows which one runs.
 */
export type SqlValue = string | number | boolean | null | Date | Uint8Array | readonly string[]

export type Row = Record<string, unknown>

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly SqlValue[]): Promise<T[]>
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>
}

export interface Database extends Queryable {
  readonly dialect: 'pglite' | 'postgres'
  /** Runs `work` in one transaction; rolls back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
  /**
   * Listens for NOTIFY messages on `channel` sent by other connections, reconnecting when the connection
   * drops. Absent where no other process can write (embedded PGlite is one process's database).
   */
  subscribe?(channel: string, handlers: SubscriptionHandlers): Promise<() => Promise<void>>
  close(): Promise<void>
}

export type SubscriptionHandlers = {
  message(payload: string): void
  /** Listening (again): messages from now on will arrive. */
  connected(): void
  /** The listening connection is gone: messages may be missed until `connected` is called again. */
  lost(error: unknown): void
}
