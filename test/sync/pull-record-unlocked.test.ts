import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PullPage } from '../../src/server/sync/protocol';
import { DEVICES, startCentral, type TestCentral } from './helpers/cluster';
import { signInDevice, syncCall } from './helpers/raw-push';

/**
 * A push holds its device's sync_clients row from its first statement to its commit. A pull of
 * the same device meanwhile (a page, or one that finds nothing new) answers at once and leaves
 * its record to the next pull, rather than waiting for the push while it holds a pooled
 * connection (pull-quiet.postgres.ts UNLOCKED_CLIENT).
 */
const postgres = inject('postgres');

describe.skipIf(!postgres)("a pull while the device's push holds its row (PostgreSQL)", () => {
  let central: TestCentral;
  let auth: string;
  beforeAll(async () => {
    central = await startCentral({ engine: 'postgres' });
    auth = await signInDevice(central.url, DEVICES.w1);
  });
  afterAll(async () => {
    await central?.close();
  });

  const pull = async (cursor?: string) => {
    const query = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const answer = await syncCall(central.url, `/api/sync/v1/pull?limit=50${query}`, { auth });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as unknown as PullPage;
  };

  const recorded = async () => {
    const client = new pg.Client({ connectionString: central.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ last_pull_at: string | null }>(
        'SELECT last_pull_at FROM sync_clients WHERE client_id = $1',
        [DEVICES.w1.id],
      );
      return rows[0]?.last_pull_at ?? null;
    } finally {
      await client.end();
    }
  };

  /** Holds the device's row as its push does (central-apply.ts lockClient) while `during` runs. */
  async function whileLocked<T>(during: () => Promise<T>): Promise<T> {
    const holder = new pg.Client({ connectionString: central.databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT last_seq FROM sync_clients WHERE client_id = $1 FOR UPDATE', [
        DEVICES.w1.id,
      ]);
      // A pull that waited for the lock would not settle before the holder gives up.
      const settled = await Promise.race([
        during().then((value) => ({ value })),
        new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 3000)),
      ]);
      await holder.query('ROLLBACK');
      if (settled === 'waited') throw new Error('the pull waited for the push');
      return settled.value;
    } finally {
      await holder.end();
    }
  }

  it('answers every page and the quiet pull at once; the next pull records itself', async () => {
    let cursor: string | undefined;
    let more = true;
    while (more) {
      const page = await pull(cursor);
      cursor = page.cursor;
      more = page.more;
    }
    const before = await recorded();
    expect(before).not.toBeNull();

    // A page of a fresh start (the page's record) and a quiet pull at the cursor, both locked out.
    const locked = await whileLocked(async () => ({
      page: await pull(),
      quiet: await pull(cursor),
    }));
    expect(locked.page.reset).toBe(true);
    expect(locked.page.changes.length).toBeGreaterThan(0);
    expect(locked.quiet.changes).toEqual([]);
    expect(await recorded()).toBe(before);

    // 50 pulls of the device at once while its push holds the row: every one answers.
    const parallel = await whileLocked(() =>
      Promise.all(Array.from({ length: 50 }, (_, i) => pull(i % 2 ? cursor : undefined))),
    );
    expect(parallel).toHaveLength(50);
    expect(await recorded()).toBe(before);

    await new Promise((resolve) => setTimeout(resolve, 5));
    await pull(cursor);
    const after = await recorded();
    expect(after! > before!).toBe(true);
  });
});
