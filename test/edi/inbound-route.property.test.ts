/**
 * Random truncations and corruptions of a valid 850, posted to POST /api/v1/edi/inbound, never
 * answer 5xx: a 200 with each set's status (the interchange stored with that outcome), or a 4xx
 * in the envelope. Every answered group gets a 997 that says what the answer says: a truncation
 * that loses the IEA is answered R or E only (never A), and wherever a set is rejected its AK5
 * is R and the AK9 is not A. Each run has its own ISA13 and PO numbers, so no run is a mere
 * duplicate of an earlier one.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanText } from '../../src/server/core/x12-text';
import { readX12 } from '../../src/server/edi/x12/reader';
import type { InterchangeSummaryView } from '../../src/shared/edi-inbound';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { goldenFor, inboundBundle, postInterchange } from './inbound-support';
import { until } from './support';

const NOISE = ['*', '~', '>', '\n', 'X', '9', ' ', '', '^', 'ISA', 'SE*1*0001~'];
let nextControl = 5000;

/** A valid 850 interchange of two POs, unique to this run (ISA13/GS06 and PO numbers). */
function freshPo(): string {
  const control = nextControl++;
  return goldenFor('850-two-orders.edi', control, {
    '4500012345': `91${control}1`,
    '4500012346': `91${control}2`,
  });
}

/** AK5 per AK2 (set control number) and the AK9 of each 997 stored for the interchange. */
async function acknowledgmentsOf(svc: TestService, interchangeId: string) {
  const rows = await svc.ctx.db
    .selectFrom('order_documents')
    .select('document')
    .where('interchange_id', '=', interchangeId)
    .where('type', '=', '997')
    .execute();
  return rows.map((row) => {
    const read = readX12(row.document!);
    expect(read.faults, row.document!).toEqual([]);
    const segments = read.interchange!.groups.flatMap((g) => g.sets.flatMap((s) => s.segments));
    const sets = new Map<string, string>();
    let current = '';
    let group = '';
    for (const { values } of segments) {
      if (values[0] === 'AK2') current = values[2] ?? '';
      if (values[0] === 'AK5') sets.set(current, values[1] ?? '');
      if (values[0] === 'AK9') group = values[1] ?? '';
    }
    return { sets, group, text: row.document! };
  });
}

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

  /** Posts `text`; answers the summary and the 997s, or null for a 4xx (checked). */
  async function post(text: string) {
    const response = await postInterchange(svc, admin, text);
    expect(response.statusCode, `${response.body}\n${text}`).toBeLessThan(500);
    if (response.statusCode !== 200) {
      expect(response.json()).toMatchObject({ message: expect.any(String) });
      return null;
    }
    const data = response.json().data as InterchangeSummaryView;
    const stored = await svc.ctx.db
      .selectFrom('edi_interchanges')
      .select('outcome')
      .where('id', '=', data.interchange_id)
      .executeTakeFirstOrThrow();
    expect(stored.outcome).toBe(data.outcome);
    const acks = await acknowledgmentsOf(svc, data.interchange_id);
    // One 997 for the one group, unless the damage made its GS01 or GS06 unreadable.
    const gs = /GS\*PO\*RECEIVER1\*SENDER1\*\d{8}\*\d{4}\*(\d{1,9})\*X\*004010~/.test(text);
    if (gs) expect(acks.length, text).toBe(1);
    return { data, acks };
  }

  it('a truncation that loses the IEA is refused (4xx) or answered R or E, never A', async () => {
    const truncated = fc
      .constant(null)
      .map(freshPo)
      .chain((po) => fc.nat({ max: po.lastIndexOf('IEA*') }).map((end) => po.slice(0, end)));
    await fc.assert(
      fc.asyncProperty(truncated, async (text) => {
        const answer = await post(text);
        if (!answer) return;
        for (const ack of answer.acks) {
          expect(['R', 'E'], ack.text).toContain(ack.group);
          for (const code of ack.sets.values()) expect(['R', 'E'], ack.text).toContain(code);
        }
        expect(answer.data.transaction_sets.every((set) => set.status !== 'accepted')).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  it('a corruption is answered by a 997 that agrees: a rejected set is R, its group not A', async () => {
    const corrupted = fc
      .constant(null)
      .map(freshPo)
      .chain((po) =>
        fc
          .array(
            fc.tuple(fc.nat({ max: po.length - 1 }), fc.constantFrom(...NOISE), fc.nat({ max: 3 })),
            { minLength: 1, maxLength: 4 },
          )
          .map((edits) => ({
            po,
            text: edits.reduce(
              (text, [at, insert, cut]) => text.slice(0, at) + insert + text.slice(at + cut),
              po,
            ),
          })),
      );
    let rejectedRuns = 0;
    await fc.assert(
      fc.asyncProperty(corrupted, async ({ po, text }) => {
        const answer = await post(text);
        if (!answer || answer.data.duplicate) return;
        const [ack] = answer.acks;
        if (!ack) return;
        for (const set of answer.data.transaction_sets) {
          const code = ack.sets.get(asEchoed(set.control_number));
          if (set.status === 'rejected') {
            expect(code, ack.text).toBe('R');
            expect(['R', 'E', 'P'], ack.text).toContain(ack.group);
          } else if (code !== undefined) {
            expect(['A', 'E'], ack.text).toContain(code);
          }
        }
        if (answer.data.transaction_sets.some((set) => set.status === 'rejected')) rejectedRuns++;
        // The undamaged text is the only one certain to be answered A throughout.
        if (text === po) expect(ack.group).toBe('A');
      }),
      { numRuns: 40 },
    );
    // Most corruptions do break the 850: the property is not vacuous.
    expect(rejectedRuns).toBeGreaterThan(5);
  });
});

/**
 * A control number as the 997 echoes it in AK202: a damaged ST02 (a lost terminator pulls the next
 * segment's tag and a line break into it) keeps only the characters a 997 element may carry, and
 * the writer trims every element (`cleanText`), so `ST*850* 1` is answered `AK2*850*1`.
 */
function asEchoed(control: string): string {
  return cleanText(control.replace(/[^A-Za-z0-9 .,\-/#&()']/g, '').slice(0, 9));
}
