import type { FastifyInstance } from 'fastify'
import type { AppConfig, AppDeps, JobIntervals } from './app-config.ts'
import type { Database } from './db/port.ts'
import type { ReadRouter } from './db/replica.ts'
import type { Clock } from './core/clock.ts'
import type { Authenticator } from './http/auth.ts'
import type { LogoStore, LogoUrl } from './logos/index.ts'
import type { AccountStore } from './accounts/index.ts'
import type { TillMetrics } from './metrics/index.ts'

/**
 * What every area is built with: the HTTP server it registers its routes and jobs on, the database, the
 * clock, the settings, and the few things all areas share (accounts and who is calling, logos).
 */
export type AreaContext = {
  app: FastifyInstance
  db: Database
  /** Reads that may lag a little (the listing): the read replica while it keeps up, else `db` (ADR 36). */
  reads: ReadRouter
  clock: Clock
  config: AppConfig
  jobs: JobIntervals
  accounts: AccountStore
  auth: Authenticator
  logos: LogoStore
  logoUrl: LogoUrl
  outbound: AppDeps['outbound']
  evm: AppDeps['evm']
  /** What this instance counts (docs/operations.md lists every metric). */
  metrics: TillMetrics
}

/** An area's /v1 routes, registered behind the API's authentication by the app. */
export type V1Routes = (v1: FastifyInstance) => void
