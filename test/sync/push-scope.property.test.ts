import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { Engine } from '../../src/server/db/engine';
import { describeEngines } from '../helpers/engines';
import type { RunningService } from '../../src/server/http/server';
import { REPLICATED_TABLES } from '../../src/server/sync/synced-tables';
import {
  centralForAllTests,
  COLUMBUS,
  DEVICES,
  OTHER_DEVICES,
  RENO,
  seedInto,
} from './helpers/cluster';
import {
  centralQuery,
  rawDevice,
  type RawDevice,
  type Row,
  signInDevice,
  syncCall,
} from './helpers/raw-push';

/**
 * Issue 18: random pushes from a Reno device (inserts, updates and deletes on every pushed table,
 * keys drawn from every facility, with or without the scope columns, rows pointed at other
 * facilities' orders, cartons, snapshots and connections) never change a row the device does not
 * serve on the central, and a fresh pull by a Savannah or a Columbus device is the same before
 * and after. Fixed seed (PUSH_SEED to try another); fast-check prints the seed and the pushes.
 */
const SEED = Number(process.env.PUSH_SEED ?? 20261125);
const RUNS = Number(process.env.PUSH_RUNS ?? 50);
const PUSHED = REPLICATED_TABLES.filter((t) => t.pushed);
const COLUMBUS_DEVICE = OTHER_DEVICES.columbus;

/** The world of one engine's run: its central, the Reno device, and the pools drawn from. */
interface World {
  central: RunningService;
  reno: RawDevice;
  /** Rows of every pushed table as the central had them at the start: where keys and values come from. */
  pools: Map<string, Row[]>;
  values: Record<string, unknown[]>;
}

function worldOn(engine: Engine): () => World {
  let world: World | undefined;
  centralForAllTests(async (central) => {
    await seedInto(central, { devices: [COLUMBUS_DEVICE] });
    const reno = await rawDevice(central, DEVICES.w1);
    // A few snapshots and deliveries at every facility, so they are in the pools too.
    for (const [i, facility] of [
      RENO,
      COLUMBUS,
      '0f000000-0000-4000-8000-000000000003',
    ].entries()) {
      await centralQuery(
        central,
        `INSERT INTO advice_snapshots (id, brand_id, facility_id, user_id, items_json, item_count, created_at)
         VALUES (?, '0b000000-0000-4000-8000-000000000001', ?, 'u', '[]', 0, '2026-11-24T10:00:00.000Z')`,
        `ab000000-0000-4000-8000-00000000000${i}`,
        facility,
      );
      await centralQuery(
        central,
        `INSERT INTO advice_deliveries (id, snapshot_id, connection_id, organization_id, retailer_id, kind,
           status, attempts, created_at, updated_at, auto_retries, given_up, sender_id)
         VALUES (?, ?, NULL, NULL, NULL, NULL, 'FAILURE', 0, '2026-11-24T10:00:00.000Z',
           '2026-11-24T10:00:00.000Z', 0, 0, ?)`,
        `ac000000-0000-4000-8000-00000000000${i}`,
        `ab000000-0000-4000-8000-00000000000${i}`,
        i === 0 ? DEVICES.w1.id : 'central',
      );
    }
    // In key order, so a seed draws the same rows on both engines.
    const pools = new Map<string, Row[]>();
    for (const t of PUSHED)
      pools.set(
        t.name,
        await centralQuery(central, `SELECT * FROM ${t.name} ORDER BY ${t.key.join(', ')}`),
      );
    const column = (table: string, name: string) => [
      ...new Set((pools.get(table) ?? []).map((r) => r[name])),
    ];
    const connections = await centralQuery(central, `SELECT id FROM connections ORDER BY id`);
    const values = {
      facility_id: [...column('orders', 'facility_id'), null],
      order_id: [...column('orders', 'id'), 'ad000000-0000-4000-8000-000000000001'],
      carton_id: column('cartons', 'id'),
      pallet_id: column('pallets', 'id'),
      snapshot_id: column('advice_snapshots', 'id'),
      connection_id: [...connections.map((r) => r.id), null],
      brand_id: column('orders', 'brand_id'),
      sender_id: [DEVICES.w1.id, DEVICES.w3.id, 'central'],
      client_id: [DEVICES.w1.id, DEVICES.w3.id],
      status: ['Open', 'Shipped', 'resolved', 'SUCCESS', 'PENDING'],
    };
    world = { central, reno, pools, values };
  }, engine);
  return () => world!;
}

/** Every row of every pushed table the Reno device does not serve (by the pull's own scope SQL). */
async function notReno(central: RunningService): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const table of PUSHED) {
    const rows = await centralQuery(
      central,
      `SELECT ${table.facility} AS scope_facility, * FROM ${table.name} R ORDER BY ${table.key.join(', ')}`,
    );
    out[table.name] = rows.filter(
      (r) =>
        r.scope_facility !== RENO &&
        // The device's own refusals without a facility: the central's record, shown to it only.
        !(
          table.name === 'sync_conflicts' &&
          r.client_id === DEVICES.w1.id &&
          r.scope_facility === null
        ),
    );
  }
  return out;
}

/** What a device's first pull brings, without versions (a refusal re-stamps rows it named). */
async function freshPull(
  central: RunningService,
  device: { id: string; secret: string },
): Promise<string[]> {
  const auth = await signInDevice(central.url, device);
  const rows: string[] = [];
  let cursor = '';
  for (;;) {
    const answer = await syncCall(
      central.url,
      `/api/sync/v1/pull?limit=50000${cursor ? `&cursor=${cursor}` : ''}`,
      { auth },
    );
    const page = answer.body as unknown as {
      cursor: string;
      more: boolean;
      changes: { t: string; k: unknown[]; row?: Row }[];
    };
    for (const change of page.changes) {
      rows.push(JSON.stringify([change.t, change.k, change.row ?? null]));
    }
    cursor = page.cursor;
    if (!page.more) break;
  }
  return rows.sort();
}

const SCOPE_COLUMNS = ['facility_id', 'order_id', 'carton_id', 'pallet_id', 'snapshot_id'];
const OTHER_TARGETS = ['connection_id', 'brand_id', 'sender_id', 'client_id', 'status'];

/** One row change: a table, an op, a key from any facility (or a new one), and a payload. */
const change: fc.Arbitrary<ChangeSpec> = fc.record({
  table: fc.constantFrom(...PUSHED.map((t) => t.name)),
  op: fc.constantFrom('I', 'U', 'D'),
  pick: fc.nat(),
  freshKey: fc.boolean(),
  scope: fc.constantFrom('keep', 'strip', 'retarget'),
  retarget: fc.dictionary(fc.constantFrom(...SCOPE_COLUMNS, ...OTHER_TARGETS), fc.nat(), {
    maxKeys: 3,
  }),
  hack: fc.option(fc.constantFrom('HACKED-BY-RENO', 999999, null)),
  old: fc.constantFrom('stored', 'none', 'stripped'),
});

function rowChange({ pools, values }: World, c: ChangeSpec) {
  const table = PUSHED.find((t) => t.name === c.table)!;
  const pool = pools.get(c.table) ?? [];
  const template: Row = pool.length > 0 ? { ...pool[c.pick % pool.length]! } : {};
  if (c.freshKey || pool.length === 0) {
    for (const key of table.key)
      template[key] = `ae000000-0000-4000-8000-${String(c.pick).padStart(12, '0').slice(-12)}`;
  }
  const stored = { ...template };
  const next: Row = { ...template };
  for (const [column, n] of Object.entries(c.retarget)) {
    const choices = values[column];
    if (choices && column in next) next[column] = choices[n % choices.length];
  }
  if (c.scope === 'strip') for (const column of SCOPE_COLUMNS) delete next[column];
  if (c.hack !== null) {
    const columns = Object.keys(next).filter(
      (k) => !table.key.includes(k) && !SCOPE_COLUMNS.includes(k),
    );
    if (columns.length > 0) next[columns[c.pick % columns.length]!] = c.hack;
  }
  const strip = (row: Row) => {
    const copy = { ...row };
    for (const column of SCOPE_COLUMNS) delete copy[column];
    return copy;
  };
  const old = c.old === 'stored' ? stored : c.old === 'stripped' ? strip(stored) : undefined;
  const k = table.key.map((key) => template[key] ?? null);
  if (c.op === 'D') return { t: c.table, op: 'D', k, old };
  return { t: c.table, op: c.op, k, old: c.op === 'U' ? old : undefined, new: next };
}

interface ChangeSpec {
  table: string;
  op: 'I' | 'U' | 'D';
  pick: number;
  freshKey: boolean;
  scope: 'keep' | 'strip' | 'retarget';
  retarget: Record<string, number>;
  hack: string | number | null;
  old: 'stored' | 'none' | 'stripped';
}

/*
 * Both engines. The PostgreSQL run once ran past 120 s in full CI runs (while passing alone): its
 * fresh pulls were JIT-compiled by PostgreSQL once autovacuum had analysed the central's tables,
 * seconds a statement under load; the service's connections now run without JIT
 * (db/postgres/open.ts SESSION_SETTINGS; docs/sync.md, "Tested on PostgreSQL").
 */
describeEngines('pushes cannot reach outside the device (fast-check, fixed seed)', (engine) => {
  const world = worldOn(engine);

  it(`random pushes from Reno change no row of another facility, nor another device's pull (seed ${SEED})`, async () => {
    const { central, reno } = world();
    // The reads go through the engine: other facilities' rows are there to be kept.
    expect((await notReno(central)).orders).not.toHaveLength(0);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(change, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 12 }),
        async (mutations) => {
          const before = await notReno(central);
          const pullsBefore = [
            await freshPull(central, DEVICES.w3),
            await freshPull(central, COLUMBUS_DEVICE),
          ];
          for (const mutation of mutations) {
            const answer = await reno.push(mutation.map((c) => rowChange(world(), c)));
            expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          }
          expect(await notReno(central)).toEqual(before);
          expect(await freshPull(central, DEVICES.w3)).toEqual(pullsBefore[0]);
          expect(await freshPull(central, COLUMBUS_DEVICE)).toEqual(pullsBefore[1]);
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true, verbose: true },
    );
  }, 120_000);
});
