import { afterEach, expect, it, vi } from 'vitest';
import type { RunningService } from '../../src/server/http/server';
import { QUEUED_FOR_CENTRAL } from '../../src/server/inventory/advise';
import type { RowChange } from '../../src/server/sync/protocol';
import { describeEngines } from '../helpers/engines';
import {
  DEVICES,
  removeTempDirs,
  restartCentral,
  startCentral,
  type TestCentral,
} from './helpers/cluster';
import { deviceLastSeq, logRowInsert, signInDevice, syncCall } from './helpers/raw-push';

/**
 * A push builds the central's documents only when it carries advice deliveries, or when it is the
 * first push since the service started (src/server/sync/central.ts, mayNeedCentralDocuments): a
 * crash after a push's commit and before the build leaves its deliveries without a document, and
 * no later push of theirs will carry them again. The crash is played by a build that does nothing
 * while `crashed.now` is set: the push's rows commit exactly as in production, the build never runs.
 */
const crashed = vi.hoisted(() => ({ now: false }));
vi.mock('../../src/server/sync/central-documents', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/server/sync/central-documents')>();
  return {
    ...actual,
    buildCentralDocuments: (...args: Parameters<typeof actual.buildCentralDocuments>) =>
      crashed.now ? Promise.resolve(0) : actual.buildCentralDocuments(...args),
  };
});

const SAVANNAH = '0f000000-0000-4000-8000-000000000003';
const BRAND = '0b000000-0000-4000-8000-000000000001';
/** A Summit connection at Savannah the central sends (the default sender). */
const CONNECTION = '0c000000-0000-4000-8000-000000000005';
const AT = '2026-11-24T10:00:00.000Z';

/** A snapshot at Savannah and its delivery queued for the central, as W3 pushes them. */
function queuedAdvice(n: number): RowChange[] {
  const snapshotId = `a7000000-0000-4000-8000-00000000000${n}`;
  return [
    {
      t: 'advice_snapshots',
      op: 'I',
      k: [snapshotId],
      new: {
        id: snapshotId,
        brand_id: BRAND,
        facility_id: SAVANNAH,
        user_id: 'u',
        items_json: '[{"sku":"S","available_quantity":1}]',
        item_count: 1,
        created_at: AT,
      },
    },
    {
      t: 'advice_deliveries',
      op: 'I',
      k: [deliveryId(n)],
      new: {
        id: deliveryId(n),
        snapshot_id: snapshotId,
        connection_id: CONNECTION,
        organization_id: '0a000000-0000-4000-8000-000000000002',
        retailer_id: '0e000000-0000-4000-8000-000000000003',
        kind: 'EDI_846',
        ...QUEUED_FOR_CENTRAL,
        attempts: 0,
        created_at: AT,
        updated_at: AT,
        auto_retries: 0,
        given_up: 0,
        sender_id: 'central',
      },
    },
  ];
}
const deliveryId = (n: number) => `a8000000-0000-4000-8000-00000000000${n}`;

/** A log row at Savannah: a push that carries no delivery. */
const logRow = (n: number): RowChange[] => [
  logRowInsert(`a9000000-0000-4000-8000-00000000000${n}`, SAVANNAH, AT),
];

/** W3 pushes one mutation with the next seq; the central's answer. */
async function pushFromW3(central: RunningService, changes: RowChange[]) {
  const auth = await signInDevice(central.url, DEVICES.w3);
  const seq = (await deviceLastSeq(central, DEVICES.w3.id)) + 1;
  return syncCall(central.url, '/api/sync/v1/push', {
    method: 'POST',
    auth,
    body: JSON.stringify({ mutations: [{ seq, name: 'ADVICE', args: { changes }, at: AT }] }),
  });
}

/** The delivery's status, control number and document on the central. */
const deliveryOn = (central: RunningService, n: number) =>
  central.context.db
    .selectFrom('advice_deliveries as d')
    .leftJoin('advice_documents as x', 'x.delivery_id', 'd.id')
    .select(['d.status', 'd.interchange_control_number', 'x.body'])
    .where('d.id', '=', deliveryId(n))
    .executeTakeFirstOrThrow();

describeEngines('deliveries a crash left without a document', (engine) => {
  let central: TestCentral | undefined;
  afterEach(async () => {
    crashed.now = false;
    await central?.close();
    central = undefined;
    removeTempDirs();
  });

  it('get theirs from the first push after a start, even one without deliveries; later such pushes do not look', async () => {
    central = await startCentral({ engine });
    crashed.now = true; // the central dies after the commit, before the build
    expect((await pushFromW3(central, queuedAdvice(1))).body).toMatchObject({ applied: 1 });
    expect(await deliveryOn(central, 1)).toEqual({
      status: 'PENDING',
      interchange_control_number: null,
      body: null,
    });

    crashed.now = false;
    central = await restartCentral(central);
    expect((await pushFromW3(central, logRow(1))).body).toMatchObject({ applied: 1 });
    const built = await deliveryOn(central, 1);
    expect(built.status).toBe('PENDING');
    expect(built.interchange_control_number).not.toBeNull();
    expect(built.body?.startsWith('ISA*')).toBe(true);

    // Since this start, only a push with deliveries looks: another crash's leftover waits for
    // the next start (or the next push with a delivery).
    crashed.now = true;
    expect((await pushFromW3(central, queuedAdvice(2))).body).toMatchObject({ applied: 1 });
    crashed.now = false;
    expect((await pushFromW3(central, logRow(2))).body).toMatchObject({ applied: 1 });
    expect((await deliveryOn(central, 2)).body).toBeNull();
    central = await restartCentral(central);
    expect((await pushFromW3(central, logRow(3))).body).toMatchObject({ applied: 1 });
    expect((await deliveryOn(central, 2)).body?.startsWith('ISA*')).toBe(true);
  }, 60_000);
});
