// Global setup of the `service-pg` vitest project: one PostgreSQL for the whole run,
// handed to the tests as inject('databaseUrl').
import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../../scripts/lib/pg-cluster.mjs';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // An external server (say, a CI service container) skips starting our own.
  const external = process.env.TILL_TEST_DATABASE_URL;
  if (external) {
    project.provide('databaseUrl', external);
    return async () => {};
  }

  const cluster = await startPostgres({ log: (line) => console.log(`[till] ${line}`) });
  project.provide('databaseUrl', cluster.url);
  return () => cluster.stop();
}
