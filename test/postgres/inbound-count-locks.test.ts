/**
 * Inbound interchanges taken in at once on PostgreSQL, through two central processes on one
 * database. Each interchange is one transaction, and every 850 it takes in writes an
 * INGEST_PURCHASE_ORDER log row whose trigger adds to that facility's `transaction_counts` rows
 * (all days and the day), locking them until the commit. Half of the interchanges reach Alpha
 * then Bravo, the other half Bravo then Alpha: written as each set is applied, two of them
 * would each hold one facility's count rows and wait for the other's (SQLSTATE 40P01, a refused
 * interchange). Every interchange must be taken in, and every row counted.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { inboundBundle, interchangeOf, postInterchange } from '../edi/inbound-support';
import { until } from '../edi/support';

const INTERCHANGES = 60;
/** N1*SF codes of the connection's two facilities (test/helpers/fixtures.ts). */
const ALPHA = 'ALP';
const BRAVO = 'BRV';

/** One 850 for the facility of `code`. */
function purchaseOrder(po: string, code: string): string[][] {
  return [
    ['850'],
    ['BEG', '00', 'SA', po, '', '20300701'],
    ['N1', 'ST', 'RETAILER DC 7', '92', '0007'],
    ['N1', 'SF', 'OUR WAREHOUSE', 'ZZ', code],
    ['PO1', '10', '2', 'EA', '4.25', 'PE', 'UP', '012345678905', 'VN', 'SKU-RED'],
    ['CTT', '1', '2'],
  ];
}

/** Interchange n: two 850s, Alpha's first for even n, Bravo's first for odd n. */
function interchange(n: number): string {
  const codes = n % 2 ? [BRAVO, ALPHA] : [ALPHA, BRAVO];
  const control = 900 + n;
  return interchangeOf(
    'PO',
    control,
    control,
    codes.map((code, k) => purchaseOrder(`PO-LOCK-${n}-${k}`, code)),
  );
}

describe.skipIf(!inject('postgres'))('inbound interchanges taken in at once on PostgreSQL', () => {
  let partner: Receiver;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
    const bundle = inboundBundle(partner.url);
    a = await createTestService({
      engine: 'postgres',
      // Brand 1 works at Bravo too, so the connection's POs may name either facility.
      seed: {
        ...bundle,
        brand_facilities: [
          ...bundle.brand_facilities,
          { brand_id: id('b', 1), facility_id: id('f', 2) },
        ],
      },
    });
    b = await createTestService({ postgresUrl: a.postgresUrl });
  });
  afterAll(async () => {
    for (const svc of [a, b]) {
      if (svc) await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    }
    await b?.close();
    await a?.close();
    await partner?.close();
  });

  it('takes in every interchange, whatever order its sets reach the facilities in', async () => {
    const tokens = [await a.login('admin@a.test'), await b.login('admin@a.test')];
    const answers = await Promise.all(
      Array.from({ length: INTERCHANGES }, (_, n) =>
        postInterchange(n % 2 ? b : a, tokens[n % 2]!, interchange(n)),
      ),
    );
    const refused = answers.flatMap((answer, n) =>
      answer.statusCode === 200 ? [] : [`${n}: ${answer.statusCode} ${answer.body}`],
    );
    expect(refused).toEqual([]);
    for (const answer of answers) {
      expect(answer.json<{ data: { outcome: string } }>().data.outcome).toBe('accepted');
    }

    const orders = await a.ctx.db
      .selectFrom('orders')
      .select(({ fn }) => ['facility_id', fn.countAll<string>().as('n')])
      .where('po_number', 'like', 'PO-LOCK-%')
      .groupBy('facility_id')
      .orderBy('facility_id')
      .execute();
    expect(orders.map((o) => [o.facility_id, Number(o.n)])).toEqual([
      [id('f', 1), INTERCHANGES],
      [id('f', 2), INTERCHANGES],
    ]);
    // One log row per set, each in its facility's counts (all days).
    const counts = await a.ctx.db
      .selectFrom('transaction_counts')
      .select(['facility_key', 'n'])
      .where('action_type', '=', 'INGEST_PURCHASE_ORDER')
      .where('day', '=', '')
      .orderBy('facility_key')
      .execute();
    expect(counts.map((c) => [c.facility_key, Number(c.n)])).toEqual([
      [id('f', 1), INTERCHANGES],
      [id('f', 2), INTERCHANGES],
    ]);
  }, 180_000);
});
