/**
 * The thin database port every repository talks to, implemented by the PostgreSQL adapter
 * (`postgres.ts`) whether the server is Till's embedded one or an external one.
 */
export type SqlValue = string | number | boolean | null | Date | Uint8Array | readonly string[]

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
   * drops. Resolves with the unsubscribe function.
   */
  subscribe(channel: string, handlers: SubscriptionHandlers): Promise<() => Promise<void>>
  close(): Promise<void>
}

export type SubscriptionHandlers = {
  message(payload: string): void
  /** Listening (again): messages from now on will arrive. */
  connected(): void
  /** The listening connection is gone: messages may be missed until `connected` is called again. */
  lost(error: unknown): void
}
