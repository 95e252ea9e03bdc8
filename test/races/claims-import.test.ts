/**
 * Claims imports under 50 parallel requests on both engines (test/claims/import runs them on
 * SQLite): 50 imports of one file keep one copy of each row, and the answers' `created` add up
 * to the rows of the file.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { id } from '../helpers/fixtures';
import { describeEngines } from '../helpers/engines';
import { claimRowCount, startClaimsService, type ClaimsService } from '../claims/fixtures';

const CHARGEBACK_CSV = [
  'Chargeback #,PO Number,Amount,Reason Code,Type,Reason,Issue Date,Dispute By,Status,Region',
  'RC-1,PO-1001,"$1,250.00",LATE,Late shipment,Shipped late,02/20/2026,2026-03-30,,West',
  'RC-2,PO-1001,-75.5,ASN,ASN accuracy,ASN quantity mismatch,2026-02-21,,won,West',
  'RC-2,PO-2222,(10),LBL,Labels,Label missing,2026-02-22,2026-04-01,Pending Review,East',
  '',
].join('\n');

const POS_CSV = [
  'Item Number,Store #,Week Ending,Units Sold,Sales $,Cost,Return Units,On Hand,Margin %',
  'SKU-A,201,02/07/2026,12,"$300.00",120,1,40,',
  'SKU-A,202,02/07/2026,3,75,30,0,8,40%',
  'SKU-C,201,02/14/2026,"1,000",2500.5,1000,10,0,',
].join('\r\n');

describeEngines('claims imports under 50 parallel requests', (engine) => {
  let claims: ClaimsService;
  beforeAll(async () => {
    claims = await startClaimsService({ engine });
  });
  afterAll(async () => {
    await claims?.svc.close();
  });

  const post = (kind: 'chargebacks' | 'pos-reports', csv: string) =>
    claims.svc.app.inject({
      method: 'POST',
      url: `/api/v1/${kind}/import`,
      headers: { authorization: claims.tokens['brand1@a.test'] },
      payload: { csv, retailer_id: id('r', 1) },
    });
  const countOf = (table: 'chargebacks' | 'pos_rows') => claimRowCount(claims.svc, table);

  for (const [kind, table, csv] of [
    ['chargebacks', 'chargebacks', CHARGEBACK_CSV],
    ['pos-reports', 'pos_rows', POS_CSV],
  ] as const) {
    it(`50 parallel ${kind} imports of one file: one copy of each of its 3 rows`, async () => {
      const before = await countOf(table);
      const answers = await Promise.all(Array.from({ length: 50 }, () => post(kind, csv)));
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      expect(answers.reduce((sum, a) => sum + (a.json().data.created as number), 0)).toBe(3);
      expect(await countOf(table)).toBe(before + 3);
    });
  }
});
