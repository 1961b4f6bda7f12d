import { DatabaseUnavailable } from './port.ts'

// SQLSTATEs that mean the server, not the statement, failed: class 08 (connection exception), the
// server shutting down or crashing (57P01, 57P02), starting up or in recovery (57P03), full (53300).
const OUTAGE_STATES = /^(08...|57P0[123]|53300)$/

// Node's socket errors on connecting to, or talking with, a server that is gone or unreachable.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

// node-postgres and pg-pool say these in words only, without a code. A statement whose answer never came
// (the client's backstop deadline, past the server's own) means the server or the way to it is gone.
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Query read timeout)/

// The server cancelled a statement at its statement_timeout: a slow query, or an overloaded server.
const STATEMENT_TIMEOUT = '57014'

/** Whether `error` says the database cannot be reached, rather than that a statement was refused. */
export function isConnectionLoss(error: unknown): boolean {
  if (error instanceof DatabaseUnavailable) return true
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && (OUTAGE_STATES.test(code) || SOCKET_CODES.has(code))) return true
  if (DRIVER_MESSAGES.test(error.message)) return true
  // A connection attempt that failed several ways at once (IPv4 and IPv6 both refused).
  return error instanceof AggregateError && error.errors.some(isConnectionLoss)
}

/** Whether the database refused a statement for want of time or connections: busy, not gone. */
export function isOverload(error: unknown, poolFull: boolean): boolean {
  if (!(error instanceof Error)) return false
  if ((error as { code?: unknown }).code === STATEMENT_TIMEOUT) return true
  // Waiting for a pooled connection timed out: gone only if the pool had room to connect anew.
  return poolFull && error.message.startsWith('timeout exceeded when trying to connect')
}

/**
 * The error a repository sees: a connection loss or an overload becomes DatabaseUnavailable (a 503),
 * anything else is as it was.
 */
export function asDatabaseError(error: unknown, poolFull = false): unknown {
  if (error instanceof DatabaseUnavailable) return error
  return isConnectionLoss(error) || isOverload(error, poolFull) ? new DatabaseUnavailable(error) : error
}

export type OutageEvent = { state: 'down'; error: unknown } | { state: 'up'; downForMs: number }

/** Turns the stream of failures and successes into one "down" and one "up" per outage. */
export function outageTracker(onOutage: ((event: OutageEvent) => void) | undefined) {
  let downSince: number | undefined
  return {
    down(error: unknown) {
      if (downSince !== undefined) return
      downSince = performance.now()
      onOutage?.({ state: 'down', error })
    },
    up() {
      if (downSince === undefined) return
      const downForMs = Math.round(performance.now() - downSince)
      downSince = undefined
      onOutage?.({ state: 'up', downForMs })
    },
  }
}
