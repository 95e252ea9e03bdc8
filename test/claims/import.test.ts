import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { TEST_PASSWORD } from '../helpers/service';
import {
  claimRowCount,
  claimsBundle,
  startClaimsService,
  type ClaimsService,
  type ClaimUser,
} from './fixtures';

let claims: ClaimsService;
beforeEach(async () => {
  claims = await startClaimsService();
});
afterEach(async () => {
  await claims?.svc.close();
});

const post = (kind: 'chargebacks' | 'pos-reports', user: ClaimUser, body: unknown) =>
  claims.svc.app.inject({
    method: 'POST',
    url: `/api/v1/${kind}/import`,
    headers: { authorization: claims.tokens[user] },
    payload: body as Record<string, unknown>,
  });

const countOf = (table: 'chargebacks' | 'pos_rows') => claimRowCount(claims.svc, table);

/** A chargeback export as a retailer portal writes it: its own headers, US dates, $ amounts. */
const CHARGEBACK_CSV = [
  'Chargeback #,PO Number,Amount,Reason Code,Type,Reason,Issue Date,Dispute By,Status,Region',
  'WM-1,PO-1001,"$1,250.00",LATE,Late shipment,"Shipped 3 days late, per ASN",02/20/2026,2026-03-30,,West',
  'WM-2,PO-1001,-75.5,ASN,ASN accuracy,ASN quantity mismatch,2026-02-21,,won,West',
  'WM-2,PO-2222,(10),LBL,Labels,Label missing,2026-02-22,2026-04-01,Pending Review,East',
  '',
].join('\n');

describe('POST /api/v1/chargebacks/import', () => {
  it('imports every row, with aliases, US dates, $ amounts and negative deductions', async () => {
    const response = await post('chargebacks', 'brand1@a.test', {
      csv: CHARGEBACK_CSV,
      retailer_id: id('r', 1),
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.message).toBe('Chargebacks imported successfully');
    expect(body.data).toMatchObject({ rows: 3, created: 3, updated: 0 });

    const listed = await claims.svc.app.inject({
      method: 'GET',
      url: '/api/v1/chargebacks?chargeback_id=WM-1',
      headers: { authorization: claims.tokens['brand1@a.test'] },
    });
    expect(listed.json().data.items).toEqual([
      expect.objectContaining({
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        chargeback_id: 'WM-1',
        po_number: 'PO-1001',
        amount: 1250,
        amount_won_back: 0,
        retailer_chargeback_code: 'LATE',
        category: 'Late shipment',
        description: 'Shipped 3 days late, per ASN',
        chargeback_date: '2026-02-20',
        dispute_deadline: '2026-03-30',
        dispute_status: 'Pending Review',
        matched_orders: [{ order_id: expect.any(String), picksheet_code: 'PS-1001' }],
        uploaded_at: '2026-03-15T12:00:00.000Z',
      }),
    ]);
    const two = await claims.svc.app.inject({
      method: 'GET',
      url: '/api/v1/chargebacks?chargeback_id=WM-2',
      headers: { authorization: claims.tokens['brand1@a.test'] },
    });
    expect(
      two
        .json()
        .data.items.map((i: Record<string, unknown>) => [i.po_number, i.amount, i.dispute_status]),
    ).toEqual([
      ['PO-2222', 10, 'Pending Review'],
      ['PO-1001', 75.5, 'Won'],
    ]);
  });

  it('re-importing the same file adds nothing; a changed figure updates the stored row', async () => {
    const body = { csv: CHARGEBACK_CSV, retailer_id: id('r', 1) };
    expect((await post('chargebacks', 'brand1@a.test', body)).json().data.created).toBe(3);
    const before = await countOf('chargebacks');
    const again = await post('chargebacks', 'brand1@a.test', body);
    expect(again.json().data).toMatchObject({ rows: 3, created: 0, updated: 3 });
    expect(await countOf('chargebacks')).toBe(before);

    const changed = CHARGEBACK_CSV.replace('"$1,250.00"', '1300');
    expect((await post('chargebacks', 'brand1@a.test', { ...body, csv: changed })).statusCode).toBe(
      200,
    );
    const row = await claims.svc.ctx.db
      .selectFrom('chargebacks')
      .selectAll()
      .where('chargeback_id', '=', 'WM-1')
      .executeTakeFirstOrThrow();
    expect(row.amount_cents).toBe(130_000);
    // The first upload time stays.
    expect(row.uploaded_at).toBe('2026-03-15T12:00:00.000Z');
  });

  it('a blank status keeps the dispute progress a re-import would otherwise reset', async () => {
    const body = { csv: CHARGEBACK_CSV, retailer_id: id('r', 1) };
    await post('chargebacks', 'brand1@a.test', body);
    await claims.svc.ctx.db
      .updateTable('chargebacks')
      .set({ dispute_status: 'Submitting' })
      .where('chargeback_id', '=', 'WM-1')
      .execute();
    await post('chargebacks', 'brand1@a.test', body);
    const row = await claims.svc.ctx.db
      .selectFrom('chargebacks')
      .select('dispute_status')
      .where('chargeback_id', '=', 'WM-1')
      .executeTakeFirstOrThrow();
    expect(row.dispute_status).toBe('Submitting');
  });

  it('rejects the whole file with a report of every bad row; nothing is written', async () => {
    const before = await countOf('chargebacks');
    const csv = [
      'chargeback_id,po_number,amount,chargeback_date,dispute_deadline,dispute_status,amount_won_back',
      'OK-1,PO-1,10.00,2026-02-01,,,',
      ',PO-2,10.00,2026-02-01,,,', // row 3: no number
      'BAD-3,PO-3,ten,2026-02-30,soon,Maybe,', // row 4: amount, date, deadline, status
      'OK-1,PO-1,12.00,2026-02-02,,,', // row 5: repeats row 2
      'BAD-6,PO-6,10.123,2026-02-01,,,20', // row 6: 3 decimals; won back > amount is not checked then
      'BAD-7,PO-7,10,2026-02-01,,,11', // row 7: won back above amount
    ].join('\n');
    const response = await post('chargebacks', 'admin@a.test', {
      csv,
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
    });
    const body = expectError(
      response,
      400,
      'INVALID_REQUEST',
      'CSV file rejected: 5 rows with problems; nothing was imported',
    ) as unknown as { error: { errors: { row: number; column: string; reason: string }[] } };
    expect(body.error.errors).toEqual([
      { row: 3, column: 'chargeback_id', reason: 'is required' },
      {
        row: 4,
        column: 'amount',
        reason: 'must be an amount in dollars with at most 2 decimals, e.g. 1234.56',
      },
      {
        row: 4,
        column: 'chargeback_date',
        reason: 'must be a real date written YYYY-MM-DD or MM/DD/YYYY',
      },
      {
        row: 4,
        column: 'dispute_deadline',
        reason: 'must be a real date written YYYY-MM-DD or MM/DD/YYYY',
      },
      {
        row: 4,
        column: 'dispute_status',
        reason: 'must be one of the dispute statuses (e.g. Pending Review, Won, Lost)',
      },
      { row: 5, column: '', reason: 'repeats row 2 (same chargeback number and PO number)' },
      {
        row: 6,
        column: 'amount',
        reason: 'must be an amount in dollars with at most 2 decimals, e.g. 1234.56',
      },
      { row: 7, column: 'amount_won_back', reason: 'must not exceed the amount' },
    ]);
    expect(await countOf('chargebacks')).toBe(before);
  });

  it('reports missing columns on row 1 and an empty file', async () => {
    const missing = await post('chargebacks', 'brand1@a.test', {
      csv: 'PO,Amount\nPO-1,10\n',
      retailer_id: id('r', 1),
    });
    const body = expectError(missing, 400, 'INVALID_REQUEST') as unknown as {
      error: { errors: { row: number; column: string }[] };
    };
    expect(body.error.errors.map((e) => [e.row, e.column])).toEqual([
      [1, 'chargeback_id'],
      [1, 'chargeback_date'],
    ]);
    const empty = await post('chargebacks', 'brand1@a.test', {
      csv: 'chargeback_id,amount,chargeback_date\n\n',
      retailer_id: id('r', 1),
    });
    expect(
      (expectError(empty, 400, 'INVALID_REQUEST') as unknown as { error: { errors: unknown[] } })
        .error.errors,
    ).toEqual([{ row: 2, column: '', reason: 'the file has no data rows' }]);
  });

  it('takes brand_id and retailer_id columns where the request gives none; a differing cell is a row problem', async () => {
    const csv = [
      'brand_id,retailer_id,chargeback_id,amount,chargeback_date',
      `${id('b', 1)},${id('r', 3)},COL-1,5,2026-02-01`,
      `${id('b', 2)},${id('r', 2)},COL-2,5,2026-02-01`,
    ].join('\n');
    const mixed = await post('chargebacks', 'admin@a.test', { csv });
    // Admin has an admin grant for brand 1 only.
    const report = expectError(mixed, 400, 'INVALID_REQUEST') as unknown as {
      error: { errors: unknown[] };
    };
    expect(report.error.errors).toEqual([
      { row: 3, column: 'brand_id', reason: `no admin access for brand '${id('b', 2)}'` },
    ]);
    const differing = await post('chargebacks', 'brand1@a.test', {
      csv: csv.split('\n').slice(0, 2).join('\n'),
      retailer_id: id('r', 1),
    });
    expect(
      (
        expectError(differing, 400, 'INVALID_REQUEST') as unknown as {
          error: { errors: unknown[] };
        }
      ).error.errors,
    ).toEqual([
      { row: 2, column: 'retailer_id', reason: "differs from the request's retailer_id" },
    ]);
    const fine = await post('chargebacks', 'admin@a.test', {
      csv: csv.split('\n').slice(0, 2).join('\n'),
    });
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('needs an admin grant for the brand; other tenants answer as unknown', async () => {
    const body = { csv: CHARGEBACK_CSV, brand_id: id('b', 1), retailer_id: id('r', 1) };
    // Sees brand 1 at Alpha DC, but no admin grant.
    expectError(
      await post('chargebacks', 'viewer@a.test', body),
      403,
      'UNAUTHORIZED',
      'Unauthorized',
    );
    // Brand 2's credentials naming brand 1.
    expectError(
      await post('chargebacks', 'brand2@b.test', body),
      404,
      'NOT_FOUND',
      'Brand not found',
    );
    // Bravo DC: no brand at all.
    expectError(
      await post('chargebacks', 'bravo@a.test', body),
      404,
      'NOT_FOUND',
      'Brand not found',
    );
    // Brand 1 at Charlie DC only (an admin there): allowed, the brand is the same.
    expect((await post('chargebacks', 'charlie1@b.test', body)).statusCode).toBe(200);
    // A retailer brand 1 never dealt with.
    expectError(
      await post('chargebacks', 'brand1@a.test', { ...body, retailer_id: id('r', 2) }),
      404,
      'NOT_FOUND',
      'Retailer not found',
    );
    // Neither the request nor the file names a retailer.
    const none = await post('chargebacks', 'brand1@a.test', { csv: CHARGEBACK_CSV });
    expect(
      (
        expectError(none, 400, 'INVALID_REQUEST') as unknown as {
          error: { errors: { reason: string }[] };
        }
      ).error.errors[0]!.reason,
    ).toBe('is required: give retailer_id in the request or a retailer_id column');
  });

  it('an admin grant for the brand at a facility of another organisation the user does not see is no grant', async () => {
    const bundle = claimsBundle();
    const other = await startClaimsService({
      seed: {
        ...bundle,
        users: [
          ...bundle.users,
          // Sees brand 1 at Alpha DC (org 1); its admin grant for brand 1 is at Charlie DC (org 2).
          {
            email: 'elsewhere@a.test',
            password: TEST_PASSWORD,
            brand_id: null,
            facility_ids: [id('f', 1)],
            admin: [{ brand_id: id('b', 1), facility_id: id('f', 3) }],
          },
        ],
      },
    });
    try {
      const token = await other.svc.login('elsewhere@a.test');
      for (const kind of ['chargebacks', 'pos-reports'] as const) {
        const response = await other.svc.app.inject({
          method: 'POST',
          url: `/api/v1/${kind}/import`,
          headers: { authorization: token },
          payload: {
            csv: kind === 'chargebacks' ? CHARGEBACK_CSV : POS_CSV,
            brand_id: id('b', 1),
            retailer_id: id('r', 1),
          },
        });
        expectError(response, 403, 'UNAUTHORIZED', 'Unauthorized');
      }
    } finally {
      await other.svc.close();
    }
  });

  it('400 for a malformed body', async () => {
    expectError(
      await post('chargebacks', 'brand1@a.test', { csv: '' }),
      400,
      'INVALID_REQUEST',
      'Invalid import request',
    );
    expectError(
      await post('chargebacks', 'brand1@a.test', { csv: 'x', brand_id: 'nope' }),
      400,
      'INVALID_REQUEST',
      'Invalid import request',
    );
  });

  it('50 parallel imports of the same file leave one copy of each chargeback', async () => {
    const before = await countOf('chargebacks');
    const body = { csv: CHARGEBACK_CSV, retailer_id: id('r', 1) };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => post('chargebacks', 'brand1@a.test', body)),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(answers.reduce((sum, a) => sum + (a.json().data.created as number), 0)).toBe(3);
    expect(await countOf('chargebacks')).toBe(before + 3);
  });
});

/** A weekly POS export: no start date column, store numbers, $ and % cells. */
const POS_CSV = [
  'Item Number,Store #,Week Ending,Units Sold,Sales $,Cost,Return Units,On Hand,Margin %',
  'SKU-A,101,02/07/2026,12,"$300.00",120,1,40,',
  'SKU-A,102,02/07/2026,3,75,30,0,8,40%',
  'SKU-C,101,02/14/2026,"1,000",2500.5,1000,10,0,',
].join('\r\n');

describe('POST /api/v1/pos-reports/import', () => {
  it('imports a weekly export: each row covers the 7 days ending on its week-ending date', async () => {
    const response = await post('pos-reports', 'brand1@a.test', {
      csv: POS_CSV,
      retailer_id: id('r', 1),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'POS data imported successfully',
      data: { rows: 3, created: 3, updated: 0 },
    });
    const listed = await claims.svc.app.inject({
      method: 'GET',
      url: '/api/v1/pos-reports?start_date=2026-02-01&end_date=2026-02-07',
      headers: { authorization: claims.tokens['brand1@a.test'] },
    });
    const store101 = listed
      .json()
      .data.items.find(
        (i: { sku: string; location: string }) => i.sku === 'SKU-A' && i.location === '101',
      );
    expect(store101).toMatchObject({
      start_date: '2026-02-01',
      end_date: '2026-02-07',
      units_sold: 12,
      revenue: 300,
      cogs: 120,
      returns: 1,
      net_units: 11,
      gross_margin: 180,
      margin_percent: 60,
      inventory_units: 40,
    });
    const store102 = listed
      .json()
      .data.items.find((i: { location: string }) => i.location === '102');
    expect(store102.margin_percent).toBe(40);
  });

  it('re-import adds nothing; changed figures update the row in place', async () => {
    const body = { csv: POS_CSV, retailer_id: id('r', 1) };
    await post('pos-reports', 'brand1@a.test', body);
    const before = await countOf('pos_rows');
    const again = await post('pos-reports', 'brand1@a.test', body);
    expect(again.json().data).toMatchObject({ created: 0, updated: 3 });
    const changed = await post('pos-reports', 'brand1@a.test', {
      ...body,
      csv: POS_CSV.replace('SKU-A,101,02/07/2026,12', 'SKU-A,101,02/07/2026,13'),
    });
    expect(changed.json().data).toMatchObject({ created: 0, updated: 3 });
    expect(await countOf('pos_rows')).toBe(before);
    const row = await claims.svc.ctx.db
      .selectFrom('pos_rows')
      .selectAll()
      .where('sku', '=', 'SKU-A')
      .where('location', '=', '101')
      .executeTakeFirstOrThrow();
    expect(row.units_sold).toBe(13);
  });

  it('rejects the file with a row report; nothing is written', async () => {
    const before = await countOf('pos_rows');
    const csv = [
      'sku,location,start_date,end_date,units_sold,revenue',
      'SKU-A,1,2026-02-01,2026-02-07,5,10',
      'SKU-A,1,2026-02-08,2026-02-07,5,10', // start after end
      ',1,2026-02-01,2026-02-07,5,10', // no sku
      'SKU-B,1,2026-02-01,2026-02-07,5.5,10', // fractional units
      'SKU-A,1,2026-02-01,2026-02-07,6,12', // repeats row 2
    ].join('\n');
    const response = await post('pos-reports', 'brand1@a.test', { csv, retailer_id: id('r', 1) });
    const body = expectError(
      response,
      400,
      'INVALID_REQUEST',
      'CSV file rejected: 4 rows with problems; nothing was imported',
    ) as unknown as { error: { errors: unknown[] } };
    expect(body.error.errors).toEqual([
      { row: 3, column: 'start_date', reason: 'is after the end date' },
      { row: 4, column: 'sku', reason: 'is required' },
      { row: 5, column: 'units_sold', reason: 'must be a whole number' },
      { row: 6, column: '', reason: 'repeats row 2 (same SKU, location and dates)' },
    ]);
    expect(await countOf('pos_rows')).toBe(before);
  });

  it('permissions as for chargebacks', async () => {
    const body = { csv: POS_CSV, brand_id: id('b', 1), retailer_id: id('r', 1) };
    expectError(
      await post('pos-reports', 'viewer@a.test', body),
      403,
      'UNAUTHORIZED',
      'Unauthorized',
    );
    expectError(
      await post('pos-reports', 'brand2@b.test', body),
      404,
      'NOT_FOUND',
      'Brand not found',
    );
    expect((await post('pos-reports', 'charlie1@b.test', body)).statusCode).toBe(200);
  });

  it('50 parallel imports of the same file leave one copy of each row', async () => {
    const before = await countOf('pos_rows');
    const body = { csv: POS_CSV, retailer_id: id('r', 1) };
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => post('pos-reports', 'brand1@a.test', body)),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(answers.reduce((sum, a) => sum + (a.json().data.created as number), 0)).toBe(3);
    expect(await countOf('pos_rows')).toBe(before + 3);
  });
});
