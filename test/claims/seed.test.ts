import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { importDemoWorkspace } from '../../src/server/seed/demo';
import { importSeedBundle, SeedError } from '../../src/server/seed/seed';
import { buildApp } from '../../src/server/http/app';
import { id } from '../helpers/fixtures';
import { createTestService, TEST_PASSWORD_COST } from '../helpers/service';
import { claimsBundle, posUuid, seedChargeback, seedPos } from './fixtures';

async function withDb<T>(run: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>) {
  const database = await openDatabase(':memory:');
  try {
    return await run(database.db);
  } finally {
    await database.close();
  }
}

const snapshot = async (db: Awaited<ReturnType<typeof openDatabase>>['db']) => ({
  chargebacks: await db.selectFrom('chargebacks').selectAll().orderBy('id').execute(),
  pos: await db.selectFrom('pos_rows').selectAll().orderBy('id').execute(),
});

const importing = (db: Awaited<ReturnType<typeof openDatabase>>['db'], bundle: unknown) =>
  importSeedBundle(db, bundle, { passwordCost: TEST_PASSWORD_COST });

describe('seed sections chargebacks and pos_reports', () => {
  it('imports both sections; importing the same bundle again changes nothing', async () => {
    await withDb(async (db) => {
      await importing(db, claimsBundle());
      const first = await snapshot(db);
      expect(first.chargebacks).toHaveLength(7);
      expect(first.pos).toHaveLength(6);
      expect(first.chargebacks[0]).toMatchObject({ amount_cents: 10_125, import_id: null });
      await importing(db, claimsBundle());
      expect(await snapshot(db)).toEqual(first);
    });
  });

  it('upserts by id: a changed entry updates its row', async () => {
    await withDb(async (db) => {
      await importing(db, claimsBundle());
      const bundle = claimsBundle();
      bundle.chargebacks[0] = seedChargeback(1, { dispute_status: 'Won', amount_won_back: 50 });
      await importing(db, bundle);
      const row = await db
        .selectFrom('chargebacks')
        .selectAll()
        .where('chargeback_id', '=', 'CB-101')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ dispute_status: 'Won', amount_won_back_cents: 5000 });
      expect(await db.selectFrom('chargebacks').select('id').execute()).toHaveLength(7);
    });
  });

  it.each([
    [
      'a chargeback of an unknown brand',
      (b: ReturnType<typeof claimsBundle>) => {
        b.chargebacks[2] = seedChargeback(3, { brand_id: id('b', 9) });
      },
      `Invalid seed bundle at chargebacks[2].brand_id: brand '${id('b', 9)}' does not exist`,
    ],
    [
      'a chargeback of an unknown retailer',
      (b: ReturnType<typeof claimsBundle>) => {
        b.chargebacks[0] = seedChargeback(1, { retailer_id: id('r', 9) });
      },
      `Invalid seed bundle at chargebacks[0].retailer_id: retailer '${id('r', 9)}' does not exist`,
    ],
    [
      'a POS row of an unknown brand',
      (b: ReturnType<typeof claimsBundle>) => {
        b.pos_reports[4] = seedPos(5, { brand_id: id('b', 9) });
      },
      `Invalid seed bundle at pos_reports[4].brand_id: brand '${id('b', 9)}' does not exist`,
    ],
    [
      'two chargebacks with one id',
      (b: ReturnType<typeof claimsBundle>) => {
        b.chargebacks[3] = seedChargeback(1, { chargeback_id: 'OTHER' });
      },
      'Invalid seed bundle at chargebacks[3].id: duplicate of chargebacks[0]',
    ],
    [
      'two POS rows for one SKU, location and period',
      (b: ReturnType<typeof claimsBundle>) => {
        b.pos_reports.push(seedPos(9));
      },
      'Invalid seed bundle at pos_reports[6].sku: duplicate of pos_reports[0]',
    ],
    [
      'an amount with three decimals',
      (b: ReturnType<typeof claimsBundle>) => {
        b.chargebacks[1] = seedChargeback(2, { amount: 1.005 });
      },
      'Invalid seed bundle at chargebacks[1].amount: must be dollars with at most 2 decimals',
    ],
    [
      'an unknown dispute status',
      (b: ReturnType<typeof claimsBundle>) => {
        b.chargebacks[1] = seedChargeback(2, { dispute_status: 'Maybe' });
      },
      /^Invalid seed bundle at chargebacks\[1\]\.dispute_status: /,
    ],
    [
      'a POS row ending before it starts',
      (b: ReturnType<typeof claimsBundle>) => {
        b.pos_reports[1] = seedPos(2, { start_date: '2026-03-01' });
      },
      'Invalid seed bundle at pos_reports[1].start_date: must not be after end_date',
    ],
  ])(
    'refuses %s with a SeedError naming the entry; nothing is written',
    async (_name, spoil, message) => {
      await withDb(async (db) => {
        const bundle = claimsBundle();
        spoil(bundle);
        const failure = await importing(db, bundle).catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(SeedError);
        if (typeof message === 'string') expect((failure as Error).message).toBe(message);
        else expect((failure as Error).message).toMatch(message);
        expect(await db.selectFrom('chargebacks').select('id').execute()).toEqual([]);
        expect(await db.selectFrom('organizations').select('id').execute()).toEqual([]);
      });
    },
  );

  it('refuses a seed chargeback whose natural key another chargeback already has', async () => {
    await withDb(async (db) => {
      await importing(db, claimsBundle());
      const clash = seedChargeback(9, { chargeback_id: 'CB-101', po_number: 'PO-1001' });
      const failure = await importing(db, { chargebacks: [clash] }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(SeedError);
      expect((failure as Error).message).toMatch(
        /^Invalid seed bundle at chargebacks\[0\]\.chargeback_id: /,
      );
    });
  });

  it('refuses a seed POS row with an id whose natural key another POS row already has', async () => {
    await withDb(async (db) => {
      await importing(db, claimsBundle());
      // Row 2 was stored without an id (keyed by brand, retailer, SKU, location and dates).
      const clash = seedPos(2, {
        id: posUuid(9),
        start_date: '2026-02-08',
        end_date: '2026-02-14',
      });
      const failure = await importing(db, { pos_reports: [clash] }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(SeedError);
      expect((failure as Error).message).toMatch(
        /^Invalid seed bundle at pos_reports\[0\]\.sku: POS row '[0-9a-f-]{36}' already has this brand, retailer, sku, location and dates$/,
      );
      expect(await db.selectFrom('pos_rows').select('id').execute()).toHaveLength(6);
    });
  });

  it('the demo workspace has chargebacks in several states, some matching its orders, and POS weeks', async () => {
    const svc = await createTestService();
    try {
      await importDemoWorkspace(svc.ctx.db, { passwordCost: TEST_PASSWORD_COST });
      const before = await snapshot(svc.ctx.db);
      await importDemoWorkspace(svc.ctx.db, { passwordCost: TEST_PASSWORD_COST });
      expect(await snapshot(svc.ctx.db)).toEqual(before);
      const app = await buildApp(svc.ctx, { host: '127.0.0.1', uiDir: null });
      const token = await (async () => {
        const r = await app.inject({
          method: 'POST',
          url: '/api/auth/token',
          payload: { email: 'demo@example.com', password: 'demo-password' },
        });
        return `Bearer ${r.json().data.access_token as string}`;
      })();
      const list = await app.inject({
        method: 'GET',
        url: '/api/v1/chargebacks',
        headers: { authorization: token },
      });
      const items = list.json().data.items as {
        dispute_status: string;
        matched_orders: unknown[];
      }[];
      expect(items.length).toBeGreaterThanOrEqual(8);
      expect(new Set(items.map((i) => i.dispute_status)).size).toBeGreaterThanOrEqual(6);
      expect(items.filter((i) => i.matched_orders.length > 0).length).toBeGreaterThanOrEqual(5);
      const pos = await app.inject({
        method: 'GET',
        url: '/api/v1/pos-reports',
        headers: { authorization: token },
      });
      expect(pos.json().data.total_count).toBeGreaterThanOrEqual(40);
      await app.close();
    } finally {
      await svc.close();
    }
  });
});
