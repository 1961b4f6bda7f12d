// Proves the PostgreSQL harness: in the `service-pg` project the global setup's
// server is reachable; in the PGlite project there is no server and this skips.
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';

const databaseUrl = inject('databaseUrl');

describe('PostgreSQL test harness', () => {
  it.skipIf(!databaseUrl)('connects to the provided PostgreSQL 15+ server', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string; version_num: string }>(
        "select version(), current_setting('server_version_num') as version_num",
      );
      expect(rows[0]?.version).toMatch(/^PostgreSQL \d+/);
      expect(Number(rows[0]?.version_num)).toBeGreaterThanOrEqual(150_000);
    } finally {
      await client.end();
    }
  });
});
