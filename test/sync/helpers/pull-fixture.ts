import { randomUUID } from 'node:crypto';
import { openDatabase, type OpenedDatabase } from '../../../src/server/db/database';
import type { PullPage, PulledChange } from '../../../src/server/sync/protocol';
import { buildPullPage } from '../../../src/server/sync/pull';
import { installCentralStamps, type CentralStamps } from '../../../src/server/sync/stamps';

/**
 * A central database in memory with its version stamps, written with plain SQL, for tests of
 * what a pull sends (no HTTP, no workstation): fast enough for a property test.
 */
export interface PullCentral {
  database: OpenedDatabase;
  stamps: CentralStamps;
  /** Inserts a row; the missing NOT NULL columns get dull values. Returns the row. */
  insert(table: string, row: Record<string, unknown>): Record<string, unknown>;
  run(sql: string, ...values: unknown[]): void;
  /** Everything a device with these facilities pulls from version 0 (all pages). */
  pullAll(device: { id: string; facilityIds: string[] }, cursor?: string): PulledAll;
  close(): Promise<void>;
}

export interface PulledAll {
  changes: PulledChange[];
  evictions: PullPage['evictions'];
  cursor: string;
}

const AT = '2026-11-25T12:00:00.000Z';

/** Dull values for the NOT NULL columns a test does not care about. */
export const PULL_DEFAULTS: Record<string, Record<string, unknown>> = {
  organizations: { name: 'Org' },
  facilities: { name: 'Facility', external_facility_code: 'F' },
  brands: { name: 'Brand' },
  retailers: { name: 'Retailer' },
  users: { password_hash: 'x' },
  connections: {
    kind: 'DIRECT_API',
    enabled: 1,
    transport_json: JSON.stringify({ type: 'file', directory: 'out' }),
  },
  orders: { status: 'Open', created_at: AT, updated_at: AT },
  order_items: { line_number: 1, sku: 'SKU', quantity: 1 },
  transactions: {
    action_type: 'INVENTORY_ADVICE',
    action_type_label: 'Inventory advice',
    duration_ms: 1,
    execution_status: 'SUCCESS',
    request_method: 'POST',
    request_url: 'http://example.invalid/',
    created_at: AT,
    updated_at: AT,
  },
  advice_snapshots: { user_id: 'u', items_json: '[]', item_count: 0, created_at: AT },
  advice_deliveries: { status: 'SENT', created_at: AT, updated_at: AT },
  sync_conflicts: {
    seq: 1,
    mutation: 'test',
    reason: 'test',
    fields_json: '[]',
    changes_json: '[]',
    created_at: AT,
    updated_at: AT,
  },
};

const WITHOUT_ID = new Set(['brand_facilities', 'user_facilities', 'user_admin', 'billing_prices']);

export async function openPullCentral(): Promise<PullCentral> {
  const database = await openDatabase(':memory:');
  const stamps = installCentralStamps(database.sqlite, database.transactionHooks);
  const { sqlite } = database;
  return {
    database,
    stamps,
    insert(table, values) {
      const row: Record<string, unknown> = { ...PULL_DEFAULTS[table], ...values };
      if (table === 'transactions') row.transaction_id ??= randomUUID();
      else if (!WITHOUT_ID.has(table)) row.id ??= randomUUID();
      const names = Object.keys(row);
      stamps.beginUnit();
      sqlite
        .prepare(
          `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
        )
        .run(...names.map((n) => row[n]));
      return row;
    },
    run(sql, ...values) {
      stamps.beginUnit();
      sqlite.prepare(sql).run(...values);
    },
    pullAll(device, cursor) {
      const changes: PulledChange[] = [];
      const evictions: PullPage['evictions'] = [];
      let at = cursor;
      for (;;) {
        const page = buildPullPage(sqlite, stamps, device, at, 1000);
        changes.push(...page.changes);
        evictions.push(...page.evictions);
        at = page.cursor;
        if (!page.more) return { changes, evictions, cursor: at };
      }
    },
    close: () => database.close(),
  };
}

/** The live rows of one table in a pull. */
export function pulledRows(pulled: PulledAll, table: string): Record<string, unknown>[] {
  return pulled.changes.filter((c) => c.t === table && c.row).map((c) => c.row!);
}
