// Values the vitest global setups hand to tests through inject().
import 'vitest';

declare module 'vitest' {
  interface ProvidedContext {
    /**
     * URL of a real PostgreSQL database, provided only in the `service-pg` project
     * (user `till` is a superuser there unless TILL_TEST_DATABASE_URL says otherwise).
     * Undefined in the `service` project: use embedded PGlite.
     */
    databaseUrl?: string;
  }
}
