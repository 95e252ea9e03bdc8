import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { baseBundle } from '../helpers/fixtures';
import { onAdmin } from '../helpers/postgres/databases';
import { createTestService, type TestService } from '../helpers/service';

/**
 * A failover (Patroni, a managed service) drops every connection of the old primary. The pool
 * must not keep handing out dead connections: the next requests open new ones
 * (docs/operations.md, High availability).
 */
const postgres = inject('postgres');

describe.skipIf(!postgres)('PostgreSQL connections dropped under the service', () => {
  let svc: TestService;
  let token: string;
  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundle(), engine: 'postgres' });
    token = await svc.login('admin@a.test');
  });
  afterAll(async () => {
    await svc?.close();
  });

  const facilities = () =>
    svc.app.inject({
      method: 'GET',
      url: '/api/user-facilities/v1/facilities',
      headers: { authorization: token },
    });

  it('answers again right after every connection of the pool was terminated', async () => {
    // Fill the pool (4 connections) so that every one of them is cut.
    const answers = await Promise.all(Array.from({ length: 8 }, facilities));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    const { rows } = await sql<{ db: string }>`SELECT current_database() AS db`.execute(svc.ctx.db);
    await onAdmin(postgres!.adminUrl, [
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = '${rows[0]!.db}' AND pid <> pg_backend_pid()`,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const after = await Promise.all(Array.from({ length: 8 }, facilities));
    expect(after.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
  });

  it('a log that throws while the pool reports the cut does not take the process down', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {
      throw new Error('stderr is closed');
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await Promise.all(Array.from({ length: 8 }, facilities)); // fill the pool again
      const { rows } = await sql<{ db: string }>`SELECT current_database() AS db`.execute(
        svc.ctx.db,
      );
      await onAdmin(postgres!.adminUrl, [
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = '${rows[0]!.db}' AND pid <> pg_backend_pid()`,
      ]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(log).toHaveBeenCalled(); // the pool did report, and its listener swallowed the throw
      const after = await Promise.all(Array.from({ length: 8 }, facilities));
      expect(after.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      log.mockRestore();
    }
  });
});
