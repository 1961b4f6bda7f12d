import { describe, expect, it } from 'vitest'
import { asDatabaseError, isConnectionLoss, isOverload } from './connection-loss.ts'
import { DatabaseUnavailable } from './port.ts'

/** What node-postgres throws for a server's ErrorResponse, and Node for a socket: an Error with a `code`. */
function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code })
}

const losses: [string, unknown][] = [
  ['the server shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01')],
  ['another backend crashing (57P02)', withCode('terminating connection due to crash of another server process', '57P02')],
  ['the server starting up (57P03)', withCode('the database system is starting up', '57P03')],
  ['a connection failure (08006)', withCode('connection failure', '08006')],
  ['no connection could be made (08001)', withCode('could not connect to server', '08001')],
  ['too many clients (53300)', withCode('sorry, too many clients already', '53300')],
  ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
  ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
  ['a broken pipe', withCode('write EPIPE', 'EPIPE')],
  ['a connect timeout', withCode('connect ETIMEDOUT 10.0.0.5:5432', 'ETIMEDOUT')],
  ['an unreachable host', withCode('connect EHOSTUNREACH 10.0.0.5:5432', 'EHOSTUNREACH')],
  ['the server going away mid-query', new Error('Connection terminated unexpectedly')],
  ['a connection timeout in the driver', new Error('Connection terminated due to connection timeout')],
  ['a client left broken by an earlier error', new Error('Client has encountered a connection error and is not queryable')],
  ['the pool timing out on connect', new Error('timeout exceeded when trying to connect')],
  ['a query read timeout', new Error('Query read timeout')],
  [
    // Node tries IPv6 and IPv4 for "localhost" and reports both failures at once.
    'both address families refused',
    new AggregateError([
      withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED'),
      withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    ]),
  ],
  ['a loss already reported', new DatabaseUnavailable(withCode('read ECONNRESET', 'ECONNRESET'))],
]

const refusals: [string, unknown][] = [
  ['a unique violation (23505)', withCode('duplicate key value violates unique constraint "payments_pkey"', '23505')],
  ['a syntax error (42601)', withCode('syntax error at or near "SELEC"', '42601')],
  ['a serialization failure (40001)', withCode('could not serialize access due to read/write dependencies among transactions', '40001')],
  ['an invalid byte sequence (22021)', withCode('invalid byte sequence for encoding "UTF8": 0x00', '22021')],
  ['a plain error', new Error('boom')],
  ['a thrown string', 'something went wrong'],
  ['nothing at all', undefined],
]

describe('telling a lost database from a refused statement', () => {
  it.each(losses)('%s is a connection loss', (_, error) => {
    expect(isConnectionLoss(error)).toBe(true)
  })

  // Retrying or reporting these as an outage would hide a bug or a conflict the caller must see.
  it.each(refusals)('%s is not a connection loss', (_, error) => {
    expect(isConnectionLoss(error)).toBe(false)
  })
})

describe('the error a repository sees', () => {
  it('reports a connection loss as DatabaseUnavailable, keeping the original as its cause', () => {
    const lost = withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')
    const seen = asDatabaseError(lost)
    expect(seen).toBeInstanceOf(DatabaseUnavailable)
    expect((seen as DatabaseUnavailable).cause).toBe(lost)
    expect((seen as DatabaseUnavailable).message).toBe('the database is unavailable: connect ECONNREFUSED 127.0.0.1:5432')
  })

  it.each(losses.filter(([, error]) => !(error instanceof DatabaseUnavailable)))('reports %s as DatabaseUnavailable', (_, error) => {
    const seen = asDatabaseError(error)
    expect(seen).toBeInstanceOf(DatabaseUnavailable)
    expect((seen as DatabaseUnavailable).cause).toBe(error)
    expect((seen as DatabaseUnavailable).message.startsWith('the database is unavailable: ')).toBe(true)
  })

  // The caller matches on the very error the driver threw (its code, its constraint).
  it.each(refusals)('passes %s through untouched', (_, error) => {
    expect(asDatabaseError(error)).toBe(error)
  })

  it('does not wrap a DatabaseUnavailable a second time', () => {
    const unavailable = new DatabaseUnavailable(new Error('Connection terminated unexpectedly'))
    const seen = asDatabaseError(unavailable)
    expect(seen).toBe(unavailable)
    expect(unavailable.message).toBe('the database is unavailable: Connection terminated unexpectedly')
  })
})

describe('a busy database', () => {
  const cancelled = withCode('canceling statement due to statement timeout', '57014')
  const poolWait = new Error('timeout exceeded when trying to connect')

  it('is a statement the server cancelled at its deadline: a 503 for the caller, but no outage', () => {
    expect(isOverload(cancelled, false)).toBe(true)
    expect(isConnectionLoss(cancelled)).toBe(false)
    expect(asDatabaseError(cancelled)).toBeInstanceOf(DatabaseUnavailable)
  })

  it('is a wait for a pooled connection that timed out while every connection was busy', () => {
    expect(isOverload(poolWait, true)).toBe(true)
    expect(asDatabaseError(poolWait, true)).toBeInstanceOf(DatabaseUnavailable)
  })

  it('is not a wait that timed out while the pool had room to connect: that server is gone', () => {
    expect(isOverload(poolWait, false)).toBe(false)
    expect(isConnectionLoss(poolWait)).toBe(true)
  })

  it('is not a refused statement', () => {
    expect(isOverload(withCode('duplicate key value violates unique constraint', '23505'), true)).toBe(false)
  })
})
