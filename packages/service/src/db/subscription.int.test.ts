// NOTIFY reaches Till on one listening connection per database, whatever the number of channels: the
// payment status channel and the webhook channel share it, so an instance holds one PostgreSQL backend for
// listening rather than one per channel. When that connection drops, every subscriber hears of it once and
// of its return, and messages flow again on every channel.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openTestDatabase, type TestDatabase } from '../../test/database.ts'
import type { SubscriptionHandlers } from './port.ts'

let tdb: TestDatabase
beforeAll(async () => {
  tdb = await openTestDatabase()
})
afterAll(() => tdb.close())

/** A subscriber that writes down what it hears. */
function subscriber() {
  const heard: string[] = []
  const handlers: SubscriptionHandlers = {
    message: (payload) => heard.push(payload),
    connected: () => heard.push('(connected)'),
    lost: () => heard.push('(lost)'),
  }
  return { heard, handlers }
}

/** This database's sessions whose last statement was a LISTEN or UNLISTEN, seen from another session. */
async function listeningSessions() {
  return tdb.db.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ~ '^(UN)?LISTEN ' AND pid <> pg_backend_pid()",
  )
}

const notify = (channel: string, payload: string) => tdb.db.query('SELECT pg_notify($1, $2)', [channel, payload])

describe('listening for notifications', () => {
  it('listens on every channel over one connection, and gives each subscriber its own channel only', async () => {
    const status = subscriber()
    const webhooks = subscriber()
    const stopStatus = await tdb.db.subscribe('test_status', status.handlers)
    const stopWebhooks = await tdb.db.subscribe('test_webhooks', webhooks.handlers)
    try {
      expect(await listeningSessions()).toHaveLength(1)
      await notify('test_status', 'pay_1 paid')
      await notify('test_webhooks', 'delivery 7')
      await vi.waitFor(() => expect(status.heard).toEqual(['(connected)', 'pay_1 paid']), { interval: 10 })
      await vi.waitFor(() => expect(webhooks.heard).toEqual(['(connected)', 'delivery 7']), { interval: 10 })
    } finally {
      await stopStatus()
      await stopWebhooks()
    }
    // The connection closes with its last subscriber.
    await vi.waitFor(async () => expect(await listeningSessions()).toEqual([]), { interval: 10 })
  })

  it('tells every subscriber once of a drop and of the return, then hears every channel again', async () => {
    const status = subscriber()
    const webhooks = subscriber()
    const stops = [await tdb.db.subscribe('drop_status', status.handlers), await tdb.db.subscribe('drop_webhooks', webhooks.handlers)]
    try {
      const [session] = await listeningSessions()
      await tdb.db.query('SELECT pg_terminate_backend($1)', [Number(session?.pid)])
      await vi.waitFor(() => expect(webhooks.heard).toEqual(['(connected)', '(lost)', '(connected)']), { interval: 10 })
      expect(status.heard).toEqual(['(connected)', '(lost)', '(connected)'])
      const [again] = await listeningSessions()
      expect(again?.pid).not.toBe(session?.pid)
      await notify('drop_status', 'after')
      await notify('drop_webhooks', 'after')
      await vi.waitFor(() => expect(status.heard.at(-1)).toBe('after'), { interval: 10 })
      await vi.waitFor(() => expect(webhooks.heard.at(-1)).toBe('after'), { interval: 10 })
    } finally {
      for (const stop of stops) await stop()
    }
  })

  it('stops one channel without disturbing the other', async () => {
    const kept = subscriber()
    const left = subscriber()
    const stopKept = await tdb.db.subscribe('kept_channel', kept.handlers)
    const stopLeft = await tdb.db.subscribe('left_channel', left.handlers)
    try {
      await stopLeft()
      await notify('left_channel', 'unheard')
      await notify('kept_channel', 'heard')
      await vi.waitFor(() => expect(kept.heard).toEqual(['(connected)', 'heard']), { interval: 10 })
      // NOTIFYs reach a session in the order they committed: once the later one is heard, the earlier is not coming.
      expect(left.heard).toEqual(['(connected)'])
      expect(await listeningSessions()).toHaveLength(1)
    } finally {
      await stopKept()
    }
  })
})
