/**
 * Random truncations and corruptions of a valid 850, posted to POST /api/v1/edi/inbound, never
 * answer 5xx: a 200 with each set's status (the interchange stored with that outcome), or a 4xx
 * in the envelope.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InterchangeSummaryView } from '../../src/shared/edi-inbound';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { goldenFor, inboundBundle, postInterchange } from './inbound-support';
import { until } from './support';

const PO = goldenFor('850-two-orders.edi', 417);
const NOISE = ['*', '~', '>', '\n', 'X', '9', ' ', '', '^', 'ISA', 'SE*1*0001~'];

describe('damaged 850s over HTTP', () => {
  let partner: Receiver;
  let svc: TestService;
  let admin: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
    svc = await createTestService({ seed: inboundBundle(partner.url) });
    admin = await svc.login('admin@a.test');
  });
  afterAll(async () => {
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    await svc?.close();
    await partner?.close();
  });

  it('never answer 5xx', async () => {
    const damaged = fc.oneof(
      fc.nat({ max: PO.length }).map((end) => PO.slice(0, end)),
      fc
        .array(
          fc.tuple(fc.nat({ max: PO.length - 1 }), fc.constantFrom(...NOISE), fc.nat({ max: 3 })),
          { minLength: 1, maxLength: 4 },
        )
        .map((edits) =>
          edits.reduce(
            (text, [at, insert, cut]) => text.slice(0, at) + insert + text.slice(at + cut),
            PO,
          ),
        ),
    );
    await fc.assert(
      fc.asyncProperty(damaged, async (text) => {
        const response = await postInterchange(svc, admin, text);
        expect(response.statusCode, `${response.body}\n${text}`).toBeLessThan(500);
        if (response.statusCode !== 200) {
          expect(response.json()).toMatchObject({ message: expect.any(String) });
          return;
        }
        const data = response.json().data as InterchangeSummaryView;
        const stored = await svc.ctx.db
          .selectFrom('edi_interchanges')
          .select('outcome')
          .where('id', '=', data.interchange_id)
          .executeTakeFirstOrThrow();
        expect(stored.outcome).toBe(data.outcome);
      }),
      { numRuns: 60 },
    );
  });
});
