import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { DEVICES, startCentral } from './helpers/cluster';
import { signInDevice, syncCall } from './helpers/raw-push';

/**
 * A central's close() does not wait forever for a request stuck on the database (issue 17: the
 * push-scope property's central once hung in its close). Here a push waits on the device's row,
 * locked by another session; the close gives up on it after its bound.
 */
const postgres = inject('postgres');

describe.skipIf(!postgres)('closing a PostgreSQL central with a request stuck on a lock', () => {
  it('returns within its bound, cutting the stuck request', async () => {
    const central = await startCentral({ engine: 'postgres', closeStepMs: 300 });
    const holder = new pg.Client({ connectionString: central.databaseUrl });
    // The central's close drops its database, and this session with it.
    holder.on('error', () => undefined);
    await holder.connect();
    let pushed: Promise<unknown> | undefined;
    try {
      await holder.query('BEGIN');
      await holder.query(
        `INSERT INTO sync_clients (client_id) VALUES ($1) ON CONFLICT DO NOTHING`,
        [DEVICES.w1.id],
      );
      await holder.query(`SELECT 1 FROM sync_clients WHERE client_id = $1 FOR UPDATE`, [
        DEVICES.w1.id,
      ]);
      const auth = await signInDevice(central.url, DEVICES.w1);
      pushed = syncCall(central.url, '/api/sync/v1/push', {
        method: 'POST',
        auth,
        body: JSON.stringify({ mutations: [] }),
      }).catch((error: unknown) => error);
      // The push is waiting on the lock.
      for (let i = 0; ; i += 1) {
        const { rows } = await holder.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (rows.length > 0) break;
        if (i > 200) throw new Error('the push never waited on the lock');
        await new Promise((r) => setTimeout(r, 25));
      }
      const started = Date.now();
      await central.close();
      expect(Date.now() - started).toBeLessThan(5_000);
      // The cut request answers no 200.
      expect(await pushed).not.toMatchObject({ status: 200 });
    } finally {
      await holder.end().catch(() => undefined);
    }
  });
});
