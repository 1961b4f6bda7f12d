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

// node-postgres and pg-pool say these in words only, without a code.
const DRIVER_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect|Query read timeout)/

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

/** The error a repository sees: a connection loss becomes DatabaseUnavailable, anything else is as it was. */
export function asDatabaseError(error: unknown): unknown {
  return isConnectionLoss(error) && !(error instanceof DatabaseUnavailable) ? new DatabaseUnavailable(error) : error
}
