// Values the vitest global setups hand to tests through inject().
import 'vitest'

declare module 'vitest' {
  interface ProvidedContext {
    /**
     * One embedded PostgreSQL server per test worker (global-setup.ts): the URL of each one's `postgres`
     * database, connected as a superuser. A test file copies the migrated template into a database of its own.
     */
    databaseServers: string[]
  }
}
