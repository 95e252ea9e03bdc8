import { randomUUID } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { inject } from 'vitest';
import type { Engine } from '../../../src/server/db/engine';
import { openPostgres } from '../../../src/server/db/postgres/open';
import type { PullPage, PulledChange } from '../../../src/server/sync/protocol';
import { buildPostgresPullPage } from '../../../src/server/sync/pull.postgres';
import { installPostgresStamps } from '../../../src/server/sync/stamps.postgres';
import { cloneTemplate } from '../../helpers/postgres/databases';
import { openPullCentral, PULL_DEFAULTS, type PulledAll } from './pull-fixture';

/**
 * pull-fixture.ts's central on either engine, with an asynchronous interface: SQLite runs the
 * synchronous fixture; PostgreSQL a cloned database whose triggers stamp (0017_sync_stamps) and
 * the PostgreSQL pull. SQL given to `run` uses `?` placeholders.
 */
export interface EngineCentral {
  insert(table: string, row: Record<string, unknown>): Promise<Record<string, unknown>>;
  run(sql: string, ...values: unknown[]): Promise<void>;
  pullAll(device: { id: string; facilityIds: string[] }, cursor?: string): Promise<PulledAll>;
  close(): Promise<void>;
}

const WITHOUT_ID = new Set(['brand_facilities', 'user_facilities', 'user_admin', 'billing_prices']);

export async function openEngineCentral(engine: Engine): Promise<EngineCentral> {
  if (engine === 'sqlite') {
    const central = await openPullCentral();
    return {
      insert: async (table, row) => central.insert(table, row),
      run: async (sql, ...values) => central.run(sql, ...values),
      pullAll: async (device, cursor) => central.pullAll(device, cursor),
      close: () => central.close(),
    };
  }
  const cloned = await cloneTemplate(inject('postgres')!);
  const store = await openPostgres(cloned.url, 4);
  await installPostgresStamps(store.db);
  const run = async (sql: string, ...values: unknown[]) => {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    await store.db.executeQuery(CompiledQuery.raw(text, values));
  };
  return {
    async insert(table, values) {
      const row: Record<string, unknown> = { ...PULL_DEFAULTS[table], ...values };
      if (table === 'transactions') row.transaction_id ??= randomUUID();
      else if (!WITHOUT_ID.has(table)) row.id ??= randomUUID();
      const names = Object.keys(row);
      await run(
        `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        ...names.map((n) => row[n]),
      );
      return row;
    },
    run,
    async pullAll(device, cursor) {
      const changes: PulledChange[] = [];
      const evictions: PullPage['evictions'] = [];
      let at = cursor;
      for (;;) {
        const page = await buildPostgresPullPage(store.db, device, at, 1000);
        changes.push(...page.changes);
        evictions.push(...page.evictions);
        at = page.cursor;
        if (!page.more) return { changes, evictions, cursor: at };
      }
    },
    async close() {
      await store.close();
      await cloned.drop();
    },
  };
}
