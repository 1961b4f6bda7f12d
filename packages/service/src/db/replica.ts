import type { Clock } from '../core/clock.ts'
import { type Database, DatabaseUnavailable, type Queryable, type Row, type SqlValue } from './port.ts'

/**
 * Where reads that may lag go (ADR 36): a streaming replica while it keeps up, the primary otherwise. Only
 * the reads named as such use it (the listing and its statistics); everything else reads the primary.
 */
export type ReadRouter = Queryable & {
  /** Until the replica has replayed what the primary holds now, reads go to the primary (read your writes). */
  afterWrite(): Promise<void>
  /** The primary's WAL position now, when there is a replica: what a reader must see to see a write just made. */
  position(): Promise<bigint | undefined>
  /** Reads that go to the replica only once it has replayed `at` (a position from `position`), if given. */
  seeing(at: bigint | undefined): Queryable
  /** Compares the replica's replay with the primary's position now (also done every interval). */
  check(): Promise<void>
  /** Whether reads go to the replica now, and how far behind it was at the last check. */
  state(): { replica: boolean; lagMs: number | undefined }
  /** How far the replica may lag before reads go to the primary. */
  maxLagMs: number
  /** Whether there is a replica at all: without one, every read is the primary's and nothing needs pinning. */
  replicated: boolean
  start(): void
  stop(): void
}

/** A pg_lsn ('16/B374D848') as a number of bytes, to compare. */
export function lsnBytes(lsn: string): bigint {
  const [high = '0', low = '0'] = lsn.split('/')
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`)
}

/**
 * The lag guard: at each check the primary's WAL position is noted with the time, then the replica's replay
 * position is read. The replica is as far behind as the oldest noted position it has not replayed is old
 * (0 once it has replayed them all). `now() - pg_last_xact_replay_timestamp()` would grow on a primary that
 * simply has nothing to commit. Past `maxLagMs`, or when a check fails, reads go to the primary.
 */
export function readRouter(deps: {
  primary: Database
  replica: Database | undefined
  maxLagMs: number
  clock: Clock
  /** How often the replica is checked; 0 leaves it to `check` (tests). */
  intervalMs: number
  onChange?: (state: { replica: boolean; lagMs: number | undefined }) => void
}): ReadRouter {
  const { primary, replica } = deps
  let noted: { lsn: bigint; at: number }[] = []
  let replayed = -1n
  let mustReach = 0n
  let lagMs: number | undefined
  let healthy = false
  let timer: NodeJS.Timeout | undefined

  const usesReplica = (at = 0n) => replica !== undefined && healthy && replayed >= mustReach && replayed >= at
  const position = async (db: Queryable, sql: string) => {
    const [row] = await db.query<{ lsn: string | null }>(sql)
    return row?.lsn ? lsnBytes(row.lsn) : undefined
  }
  const primaryPosition = () => position(primary, 'SELECT pg_current_wal_lsn()::text AS lsn')

  async function check(): Promise<void> {
    if (!replica) return
    const before = usesReplica()
    try {
      const now = deps.clock.now().getTime()
      const at = await primaryPosition()
      if (at !== undefined && (noted.at(-1)?.lsn ?? -1n) < at) noted.push({ lsn: at, at: now })
      replayed = (await position(replica, 'SELECT pg_last_wal_replay_lsn()::text AS lsn')) ?? -1n
      noted = noted.filter((entry) => entry.lsn > replayed)
      lagMs = noted.length === 0 ? 0 : now - (noted[0]?.at ?? now)
      healthy = lagMs <= deps.maxLagMs
    } catch {
      healthy = false
      lagMs = undefined
    }
    if (before !== usesReplica()) deps.onChange?.({ replica: usesReplica(), lagMs })
  }

  async function read<T extends Row>(at: bigint | undefined, sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    if (!replica || !usesReplica(at)) return primary.query<T>(sql, params)
    try {
      return await replica.query<T>(sql, params)
    } catch (error) {
      // A replica that went away: the primary answers, and the next check decides when to come back. A
      // read cancelled because replay needed what it held (a recovery conflict, 40001) is read there too.
      const conflict = (error as { code?: unknown }).code === '40001'
      if (!(error instanceof DatabaseUnavailable) && !conflict) throw error
      if (!conflict) healthy = false
      return primary.query<T>(sql, params)
    }
  }

  return {
    query: <T extends Row>(sql: string, params?: readonly SqlValue[]) => read<T>(undefined, sql, params),
    exec: (sql) => primary.exec(sql),
    position: async () => (replica ? primaryPosition() : undefined),
    seeing: (at) => ({
      query: <T extends Row>(sql: string, params?: readonly SqlValue[]) => read<T>(at, sql, params),
      exec: (sql) => primary.exec(sql),
    }),
    async afterWrite() {
      if (!replica) return
      const at = await primaryPosition()
      if (at !== undefined && at > mustReach) mustReach = at
    },
    check,
    state: () => ({ replica: usesReplica(), lagMs }),
    maxLagMs: deps.maxLagMs,
    replicated: replica !== undefined,
    start() {
      if (!replica || deps.intervalMs <= 0 || timer) return
      void check()
      timer = setInterval(() => void check(), deps.intervalMs)
      timer.unref()
    },
    stop() {
      clearInterval(timer)
      timer = undefined
    },
  }
}
