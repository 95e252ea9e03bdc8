/**
 * Control numbers of several EDI connections taken in one statement (`takeControlNumbersOf`, as
 * an advice does for every 846 it sends) by overlapping transactions of two central processes
 * on one PostgreSQL database: the rows are locked in one order (by id), so no two transactions
 * wait on each other (no deadlock), and every number is handed out once.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { takeControlNumbersOf } from '../../src/server/inventory/queries';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import {
  controlCounters,
  ediSettings,
  facilityUrl,
  isa13Of,
  post,
  sleep,
} from '../inventory/support';

const ADMIN = 'admin@a.test';

const postgres = inject('postgres');
const [C1, C4] = [id('c', 1), id('c', 4)];

/** Brand 1 of organisation 1 has a second EDI connection, to another retailer. */
function bundle() {
  const base = baseBundle();
  base.connections.push({
    ...base.connections[0]!,
    id: C4,
    retailer_id: id('r', 2),
    transport: { type: 'file', directory: 'outbox/r4' },
    edi: ediSettings(4),
  });
  return base;
}

describe.skipIf(!postgres)('control numbers of two connections taken in parallel', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    a = await createTestService({ engine: 'postgres', seed: bundle() });
    b = await createTestService({ postgresUrl: a.postgresUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('50 parallel sends across two connections, listed in either order, never deadlock', async () => {
    // Move one row so the table's physical order differs from the ids' order.
    await a.ctx.db
      .updateTable('connections')
      .set({ interchange_counter: 0 })
      .where('id', '=', C1)
      .execute();
    const taken = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        (n % 2 ? a : b).ctx.db.transaction().execute(async (trx) => {
          // The planner may scan the table (physical order) or the primary key (id order), as
          // the table's statistics move: half of the statements take each path.
          if (n % 2) await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          else
            await sql`SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off`.execute(
              trx,
            );
          const numbers = await takeControlNumbersOf(trx, n % 4 < 2 ? [C1, C4] : [C4, C1]);
          // The advice's transaction goes on writing while it holds both rows.
          await sleep(20);
          return numbers;
        }),
      ),
    );
    for (const connection of [C1, C4]) {
      const numbers = taken.map((t) => t.get(connection)!.interchange).sort((x, y) => x - y);
      expect(numbers).toEqual(Array.from({ length: 50 }, (_, n) => n + 1));
      const groups = new Set(taken.map((t) => t.get(connection)!.group));
      expect(groups.size).toBe(50);
    }
  });
  it('50 parallel advice sends through both processes each take one number per connection', async () => {
    const before = new Map((await controlCounters(a)).map((row) => [row.id, row]));
    const bearers = [await a.login(ADMIN), await b.login(ADMIN)];
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        post(n % 2 ? b : a, bearers[n % 2]!, facilityUrl(id('b', 1), id('f', 1)), {
          items: [{ sku: `SKU-${n}`, available_quantity: n }],
        }),
      ),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const after = new Map((await controlCounters(a)).map((row) => [row.id, row]));
    for (const connection of [C1, C4]) {
      expect(after.get(connection)!.interchange_counter).toBe(
        before.get(connection)!.interchange_counter + 50,
      );
    }
    // Every 846 carries its own ISA13: an X12 body is the whole document.
    const documents = await a.ctx.db
      .selectFrom('advice_deliveries')
      .innerJoin('advice_documents', 'advice_documents.delivery_id', 'advice_deliveries.id')
      .select(['advice_deliveries.connection_id', 'advice_documents.body'])
      .where('advice_deliveries.connection_id', 'in', [C1, C4])
      .execute();
    for (const connection of [C1, C4]) {
      const isa13s = documents
        .filter((row) => row.connection_id === connection)
        .map((row) => isa13Of(row.body));
      expect(isa13s).toHaveLength(50);
      expect(new Set(isa13s).size).toBe(50);
    }
  });
});
