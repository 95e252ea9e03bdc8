import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import demoTransactions from '../../resources/demo-transactions.json';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import { importDemoWorkspace } from '../../src/server/seed/demo';
import { importSeedBundle, SeedError } from '../../src/server/seed/seed';
import { id } from '../helpers/fixtures';
import { TEST_PASSWORD_COST } from '../helpers/service';
import { transactionEntries, transactionsBundle, txId } from './fixtures';

const cheap = { passwordCost: TEST_PASSWORD_COST };

let database: OpenedDatabase;
beforeEach(async () => {
  database = await openDatabase(':memory:');
});
afterEach(async () => {
  await database.close();
});

const all = (sql: string, ...params: unknown[]) => database.sqlite.prepare(sql).all(...params);

async function seedErrorOf(bundle: unknown): Promise<string> {
  const error = await importSeedBundle(database.db, bundle, cheap).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeedError);
  return (error as SeedError).message;
}

/** The counts kept by triggers, next to the same counts taken from the rows. */
function countsAgree() {
  const kept = all(`SELECT facility_key, brand_key, retailer_key, action_type, execution_status,
      has_error, n FROM transaction_counts WHERE day = '' AND n <> 0 ORDER BY 1, 2, 3, 4, 5, 6`);
  const actual = all(`SELECT coalesce(facility_id, '') AS facility_key,
      coalesce(brand_id, '') AS brand_key, coalesce(retailer_id, '') AS retailer_key,
      action_type, execution_status, (error_message IS NOT NULL) AS has_error, count(*) AS n
      FROM transactions GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`);
  expect(kept).toEqual(actual);
  const days = all(`SELECT day, sum(n) AS n FROM transaction_counts WHERE day <> '' GROUP BY day
      HAVING sum(n) <> 0 ORDER BY day`);
  const actualDays = all(`SELECT substr(created_at, 1, 10) AS day, count(*) AS n FROM transactions
      GROUP BY 1 ORDER BY 1`);
  expect(days).toEqual(actualDays);
}

describe('seed bundle: transactions', () => {
  it('imports rows with the code in action_type and its phrase as label; twice changes nothing', async () => {
    await importSeedBundle(database.db, transactionsBundle(), cheap);
    const first = all('SELECT * FROM transactions ORDER BY transaction_id');
    expect(first).toHaveLength(10);
    expect(
      all(
        'SELECT action_type, action_type_label, created_at, updated_at, request_payload, response_body FROM transactions WHERE transaction_id = ?',
        txId(1),
      ),
    ).toEqual([
      {
        action_type: 'CREATE_ORDERS_FROM',
        action_type_label: 'Create order',
        created_at: '2026-03-01T00:00:00.000Z',
        updated_at: '2026-03-01T00:00:00.000Z',
        request_payload: '{"picksheet_code":"PS-1001","items":[{"sku":"SKU-A","quantity":4}]}',
        response_body: '{"message":"Order created successfully"}',
      },
    ]);
    await importSeedBundle(database.db, transactionsBundle(), cheap);
    expect(all('SELECT * FROM transactions ORDER BY transaction_id')).toEqual(first);
    expect(all('SELECT count(*) AS n FROM transactions_search_ids')).toEqual([{ n: 10 }]);
    countsAgree();
  });

  it('upserts by transaction_id: a changed row keeps search and counts in step', async () => {
    await importSeedBundle(database.db, transactionsBundle(), cheap);
    const changed = transactionEntries().map((entry) =>
      entry.transaction_id === txId(3)
        ? {
            ...entry,
            error_message: 'Renamed failure QUOKKA',
            execution_status: 'FAILURE',
            facility_id: id('f', 2),
            created_at: '2026-05-05T05:00:00+02:00',
          }
        : entry,
    );
    await importSeedBundle(database.db, { ...transactionsBundle(), transactions: changed }, cheap);
    expect(
      all(`SELECT created_at, facility_id FROM transactions WHERE transaction_id = ?`, txId(3)),
    ).toEqual([{ created_at: '2026-05-05T03:00:00.000Z', facility_id: id('f', 2) }]);
    const search = (term: string) =>
      all(
        `SELECT m.transaction_id FROM transactions_search s JOIN transactions_search_ids m ON m.id = s.rowid
        WHERE transactions_search MATCH ?`,
        `"${term}"`,
      );
    expect(search('quokka')).toEqual([{ transaction_id: txId(3) }]);
    expect(search('bad gateway')).toEqual([]);
    countsAgree();
    database.sqlite
      .prepare('DELETE FROM transactions WHERE transaction_id IN (?, ?)')
      .run(txId(3), txId(7));
    expect(search('quokka')).toEqual([]);
    expect(all('SELECT count(*) AS n FROM transactions_search_ids')).toEqual([{ n: 8 }]);
    countsAgree();
  });

  it('names the bad entry and imports nothing', async () => {
    const bundle = (entry: Record<string, unknown>) => ({
      ...transactionsBundle(),
      transactions: [...transactionEntries(), entry],
    });
    const base = transactionEntries()[0]!;
    expect(await seedErrorOf(bundle({ ...base, transaction_id: 'nope' }))).toMatch(
      /^Invalid seed bundle at transactions\[10\]\.transaction_id: /,
    );
    expect(
      await seedErrorOf(bundle({ ...base, transaction_id: txId(99), action_type: 'Create order' })),
    ).toMatch(/^Invalid seed bundle at transactions\[10\]\.action_type: /);
    expect(
      await seedErrorOf(bundle({ ...base, transaction_id: txId(99), created_at: 'yesterday' })),
    ).toMatch(/^Invalid seed bundle at transactions\[10\]\.created_at: /);
    expect(await seedErrorOf(bundle({ ...base, transaction_id: txId(99), extra: 1 }))).toMatch(
      /^Invalid seed bundle at transactions\[10\]: unknown key\(s\) extra/,
    );
    expect(
      await seedErrorOf(bundle({ ...base, transaction_id: txId(99), brand_id: id('b', 9) })),
    ).toBe(
      `Invalid seed bundle at transactions[10].brand_id: brand '${id('b', 9)}' does not exist`,
    );
    expect(
      await seedErrorOf(bundle({ ...base, transaction_id: txId(99), facility_id: id('f', 9) })),
    ).toMatch(
      /^Invalid seed bundle at transactions\[10\]\.facility_id: .*'0f0+-0000-4000-8000-0+9' does not exist$/,
    );
    expect(all('SELECT count(*) AS n FROM transactions')).toEqual([{ n: 0 }]);
  });

  it('the demo workspace has its transactions, failures among them', async () => {
    await importDemoWorkspace(database.db, cheap);
    const rows = all('SELECT execution_status, error_message FROM transactions') as {
      execution_status: string;
      error_message: string | null;
    }[];
    // The hand-written rows, and ~2,000 made from the demo's own connections and orders.
    expect(rows.length).toBeGreaterThan(demoTransactions.transactions.length);
    expect(rows.filter((row) => row.error_message !== null).length).toBeGreaterThanOrEqual(2);
    countsAgree();
  });

  it('the demo log has at least 1,500 rows over at least 50 days, the same at every import (issue 19)', async () => {
    await importDemoWorkspace(database.db, cheap);
    const [span] = all(`SELECT count(*) AS n, count(DISTINCT substr(created_at, 1, 10)) AS days,
        julianday(max(created_at)) - julianday(min(created_at)) AS spread FROM transactions`) as {
      n: number;
      days: number;
      spread: number;
    }[];
    expect(span!.n).toBeGreaterThanOrEqual(1_500);
    expect(span!.days).toBeGreaterThanOrEqual(50);
    expect(span!.spread).toBeGreaterThanOrEqual(50);

    const before = all('SELECT * FROM transactions ORDER BY transaction_id');
    await importDemoWorkspace(database.db, cheap);
    expect(all('SELECT * FROM transactions ORDER BY transaction_id')).toEqual(before);
    countsAgree();
  });

  it('the demo log names only what the demo holds, so the log, analytics and billing agree', async () => {
    await importDemoWorkspace(database.db, cheap);
    // Every order named exists, at the facility, brand and retailer the row says.
    expect(
      all(`SELECT t.transaction_id FROM transactions t LEFT JOIN orders o ON o.id = t.order_id
        WHERE t.order_id IS NOT NULL AND (o.id IS NULL OR o.facility_id <> t.facility_id
          OR o.brand_id <> t.brand_id OR o.retailer_id <> t.retailer_id)`),
    ).toEqual([]);
    // Every order has its create row, at the time the order was made.
    expect(
      all(`SELECT o.id FROM orders o WHERE NOT EXISTS (SELECT 1 FROM transactions t
        WHERE t.order_id = o.id AND t.action_type = 'CREATE_ORDERS_FROM'
          AND t.created_at = o.created_at)`),
    ).toEqual([]);
    // Advices go to a brand's facilities only, through a connection of that brand and retailer
    // in the facility's organisation.
    expect(
      all(`SELECT DISTINCT t.brand_id, t.facility_id, t.retailer_id FROM transactions t
        WHERE t.action_type = 'SEND_INVENTORY_ADVICE' AND t.facility_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM brand_facilities bf JOIN facilities f ON f.id = bf.facility_id
            JOIN connections c ON c.brand_id = bf.brand_id AND c.organization_id = f.organization_id
            WHERE bf.brand_id = t.brand_id AND bf.facility_id = t.facility_id
              AND c.retailer_id = t.retailer_id)`),
    ).toEqual([]);
  });
});
