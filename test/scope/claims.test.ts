/**
 * Scope of the claims routes (chargebacks and POS rows: lists, imports, the dispute packet) on
 * both engines. Claims belong to a brand (test/claims covers the brand-level rules on SQLite);
 * the hard cases here are the other brand at Alpha, where brand 1 works too:
 * - alpha2@a.test: brand 2's credentials at Alpha, an admin for brand 2 there: sees brand 2's
 *   rows only; brand 1 is `Brand not found`;
 * - alpha-admin2@a.test: brand-less at Alpha (sees both brands), an admin for brand 2 only: may
 *   not import for brand 1 (403 `Unauthorized`, or a row problem when the file names it).
 * Nothing is written by a refused import.
 */
import { expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { chargebackUuid, claimRowCount, claimsBundle, claimsClock } from '../claims/fixtures';
import { id } from '../helpers/fixtures';
import { describeEngines } from '../helpers/engines';
import { signedInService } from '../helpers/signed-in';
import {
  brandTwoAdminsAtAlpha,
  OTHER_BRAND_ADMIN_BRANDLESS as OTHER_BRAND_ADMIN,
  OTHER_BRAND_SAME_FACILITY as OTHER_BRAND,
} from './support';

const USERS = [OTHER_BRAND, OTHER_BRAND_ADMIN] as const;

function bundle() {
  const base = claimsBundle();
  return { ...base, users: [...base.users, ...brandTwoAdminsAtAlpha()] };
}

const CHARGEBACK_CSV = [
  'Chargeback #,PO Number,Amount,Reason Code,Type,Reason,Issue Date,Dispute By,Status',
  'WM-1,PO-1001,10,LATE,Late shipment,Late,2026-02-20,2026-03-30,',
  '',
].join('\n');
const POS_CSV = [
  'Item Number,Store #,Week Ending,Units Sold,Sales $,Cost,Return Units,On Hand',
  'SKU-A,101,02/07/2026,12,300,120,1,40',
].join('\n');

describeEngines('scope: chargebacks and POS reports', (engine) => {
  const api = signedInService(USERS, () => ({
    seed: bundle(),
    clock: claimsClock().clock,
    engine,
  }));
  const post = (user: (typeof USERS)[number], kind: string, payload: object) =>
    api.svc.app.inject({
      method: 'POST',
      url: `/api/v1/${kind}/import`,
      headers: api.headers(user),
      payload,
    });
  const counts = async () => {
    const n = (table: 'chargebacks' | 'pos_rows') => claimRowCount(api.svc, table);
    return { chargebacks: await n('chargebacks'), pos: await n('pos_rows') };
  };
  const brandsListed = async (user: (typeof USERS)[number], path: string) => {
    const response = await api.get(user, path);
    expect(response.statusCode, response.body).toBe(200);
    const items = (response.json() as { data: { items: { brand_id: string }[] } }).data.items;
    return [...new Set(items.map((item) => item.brand_id))].sort();
  };

  it('brand 2’s credentials at Alpha see brand 2’s rows only; brand 1 is not found', async () => {
    const before = await counts();
    expect(await brandsListed(OTHER_BRAND, '/api/v1/chargebacks')).toEqual([id('b', 2)]);
    expect(await brandsListed(OTHER_BRAND, '/api/v1/chargebacks?po_number=PO-1001')).toEqual([]);
    expect(await brandsListed(OTHER_BRAND, '/api/v1/pos-reports')).toEqual([id('b', 2)]);
    for (const path of ['chargebacks', 'pos-reports']) {
      expectError(
        await api.get(OTHER_BRAND, `/api/v1/${path}?retailer_id=${id('r', 1)}`),
        404,
        'NOT_FOUND',
        'Retailer not found',
      );
    }
    expectError(
      await api.get(OTHER_BRAND, `/api/v1/chargebacks/${chargebackUuid(1)}/dispute-packet`),
      404,
      'NOT_FOUND',
      'Chargeback not found',
    );
    const scope = { brand_id: id('b', 1), retailer_id: id('r', 1) };
    for (const [kind, csv] of [
      ['chargebacks', CHARGEBACK_CSV],
      ['pos-reports', POS_CSV],
    ] as const) {
      expectError(
        await post(OTHER_BRAND, kind, { csv, ...scope }),
        404,
        'NOT_FOUND',
        'Brand not found',
      );
    }
    expect(await counts()).toEqual(before);
  });

  it('a brand-less admin of brand 2 at Alpha sees brand 1 but may not import for it', async () => {
    const before = await counts();
    expect(await brandsListed(OTHER_BRAND_ADMIN, '/api/v1/chargebacks')).toEqual([
      id('b', 1),
      id('b', 2),
    ]);
    for (const [kind, csv] of [
      ['chargebacks', CHARGEBACK_CSV],
      ['pos-reports', POS_CSV],
    ] as const) {
      expectError(
        await post(OTHER_BRAND_ADMIN, kind, { csv, brand_id: id('b', 1), retailer_id: id('r', 1) }),
        403,
        'UNAUTHORIZED',
        'Unauthorized',
      );
      // The file names brand 1 in a column, the request no brand: a row problem, nothing written.
      const lines = csv.split('\n');
      const named = [
        `${lines[0]},brand_id`,
        ...lines
          .slice(1)
          .filter((line) => line !== '')
          .map((line) => `${line},${id('b', 1)}`),
      ].join('\n');
      const refused = expectError(
        await post(OTHER_BRAND_ADMIN, kind, { csv: named, retailer_id: id('r', 1) }),
        400,
        'INVALID_REQUEST',
      ) as unknown as { error: { errors: { reason: string }[] } };
      expect(refused.error.errors.map((e) => e.reason)).toContain(
        `no admin access for brand '${id('b', 1)}'`,
      );
    }
    expect(await counts()).toEqual(before);
  });
});
