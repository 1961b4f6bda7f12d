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
  close(): Promise<void>
}
