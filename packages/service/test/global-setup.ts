// The vitest global setup of every project whose tests need a database: one embedded PostgreSQL server
// per test worker, each with a migrated template database that test files copy (CREATE DATABASE …
// TEMPLATE), so a file gets a fresh database in milliseconds instead of migrating its own.
import type { TestProject } from 'vitest/node'
import { migrate } from '../src/db/migrate.ts'
import { startEmbeddedServer, type EmbeddedServer } from '../src/db/embedded/server.ts'
import { openPostgres } from '../src/db/postgres.ts'
import { TEMPLATE_DATABASE } from './database.ts'

async function serverWithTemplate(): Promise<EmbeddedServer> {
  const server = await startEmbeddedServer()
  try {
    const admin = await openPostgres({ url: server.url('postgres'), max: 1 })
    await admin.exec(`CREATE DATABASE ${TEMPLATE_DATABASE}`)
    await admin.close()
    const template = await openPostgres({ url: server.url(TEMPLATE_DATABASE), max: 1 })
    await migrate(template)
    // A template must have no connections while it is copied.
    await template.close()
    return server
  } catch (error) {
    await server.stop()
    throw error
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workers = Math.max(1, Number(project.globalConfig.maxWorkers) || 1)
  const servers = await Promise.all(Array.from({ length: workers }, serverWithTemplate))
  project.provide(
    'databaseServers',
    servers.map((server) => server.url('postgres')),
  )
  return async () => {
    await Promise.all(servers.map((server) => server.stop()))
  }
}
