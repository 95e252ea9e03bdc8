/**
 * Order documents in a central + workstation deployment (issue 16, item 10): a document is sent
 * by exactly one replica, the one `senderOfNewDelivery` names for its connection. Shipping on a
 * workstation whose connection the central sends: the document reaches the central by push, the
 * central envelopes it with its own ISA13/GS06 and sends it once (drainers on both sides, both
 * restarted), and the status, the stamped text and `asn_sent_at` come back by pull; a 997 taken
 * in on the central marks it accepted on the workstation. The push guards refuse another
 * facility's document rows and outcomes written by a replica that does not send the document.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/http/server';
import { UNENVELOPED_X12_CONTENT_TYPE } from '../../src/server/sync/role';
import { TEST_PASSWORD_COST } from '../helpers/service';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import {
  api,
  closedAfterEach,
  DEVICES,
  eventually,
  RENO,
  SAVANNAH,
  signIn,
  startCentral,
  startWorkstation,
  syncUntilQuiet,
} from './helpers/cluster';
import { centralRow, centralSqlite, rawDevice } from './helpers/raw-push';

/** Brand 2 and retailer 2 in Reno's organisation: EDI 856s, sent by the central. */
const EDI_CONNECTION = '0c000000-0000-4000-8000-000000000003';
/** Brand 1 and retailer 4 in Reno's organisation: JSON shipment confirmations, sent by the workstation. */
const DIRECT_CONNECTION = '0c000000-0000-4000-8000-000000000002';
/** Brand 1 and retailer 3 in Savannah's organisation. */
const SAVANNAH_CONNECTION = '0c000000-0000-4000-8000-000000000005';
const BRAND_1 = '0b000000-0000-4000-8000-000000000001';
const BRAND_2 = '0b000000-0000-4000-8000-000000000002';
const DRAIN = { intervalMs: 100 };

const running = closedAfterEach();
let partner: Receiver;
beforeAll(async () => {
  partner = await startReceiver(ok, 'retailer');
});
afterAll(async () => {
  await partner.close();
});

/** Points the two Reno connections at the partner, each with its sender and documents. */
async function routeDocuments(central: RunningService) {
  for (const [id, sender] of [
    [EDI_CONNECTION, 'central'],
    [DIRECT_CONNECTION, 'workstation'],
  ] as const) {
    await central.context.db
      .updateTable('connections')
      .set({
        transport_json: JSON.stringify({ type: 'http', url: `${partner.url}/${id}` }),
        sender,
        order_documents_json: JSON.stringify({ send: ['856'], facility_id: RENO }),
      })
      .where('id', '=', id)
      .execute();
  }
}

/** The central again on its data dir and port (the workstation knows its URL). */
function restartCentral(dataDir: string, port: number) {
  return startService(
    {
      host: '127.0.0.1',
      port,
      dataDir,
      seed: null,
      uiDir: null,
      outboxDrain: DRAIN,
      sync: { role: 'central' },
    },
    { passwordCost: TEST_PASSWORD_COST },
  );
}

const stagedOrder = (central: RunningService, brandId: string, retailerSuffix: string) =>
  central.context.db
    .selectFrom('orders')
    .selectAll()
    .where('facility_id', '=', RENO)
    .where('status', '=', 'Staged')
    .where('brand_id', '=', brandId)
    .where('retailer_id', '=', `0e000000-0000-4000-8000-00000000000${retailerSuffix}`)
    .executeTakeFirstOrThrow();

const documentsOf = (service: RunningService, orderId: string) =>
  service.context.db
    .selectFrom('order_documents')
    .selectAll()
    .where('order_id', '=', orderId)
    // What shipping writes: a staged demo EDI order already has its 850's 997 and its 855.
    .where('type', 'in', ['856', 'SHIPMENT_CONFIRMATION'])
    .orderBy('type')
    .execute();

/**
 * The order documents the partner received over a connection: its 856/855/810/997s and shipment
 * confirmations, not the inventory advices (846s, feeds) the same connections carry.
 */
const requestsTo = (connectionId: string) =>
  partner.received.filter(
    (r) =>
      r.path.endsWith(`/${connectionId}`) &&
      (/^ISA/.test(r.body) ? !/ST.846./.test(r.body) : r.body.includes('"shipment_confirmation"')),
  );

/** A 997 from the EDI connection's retailer (NORTHWINDMKT) to us (ACMELOGISTICS). */
function functionalAck(control: number, groupControl: number, st02: string): string {
  const isa = [
    'ISA',
    '00',
    ''.padEnd(10),
    '00',
    ''.padEnd(10),
    'ZZ',
    'NORTHWINDMKT'.padEnd(15),
    'ZZ',
    'ACMELOGISTICS'.padEnd(15),
    '301001',
    '1200',
    'U',
    '00401',
    String(control).padStart(9, '0'),
    '0',
    'P',
    '>',
  ];
  const segments = [
    isa,
    ['GS', 'FA', 'NORTHWINDMKT', 'ACMELOGISTICS', '20301001', '1200', '5001', 'X', '004010'],
    ['ST', '997', '0001'],
    ['AK1', 'SH', String(groupControl)],
    ['AK2', '856', st02],
    ['AK5', 'A'],
    ['AK9', 'A', '1', '1', '1'],
    ['SE', '6', '0001'],
    ['GE', '1', '5001'],
    ['IEA', '1', String(control).padStart(9, '0')],
  ];
  return segments.map((values) => `${values.join('*')}~\n`).join('');
}

async function postInterchange(service: RunningService, auth: string, text: string) {
  const response = await fetch(`${service.url}/api/v1/edi/inbound`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/edi-x12' },
    body: text,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('order documents between a workstation and the central', () => {
  it('ships on the workstation: the central sends its ASN exactly once with its own control numbers, the status comes back, a 997 on the central marks it accepted there', async () => {
    partner.clear();
    let central = await startCentral({ outboxDrain: DRAIN });
    running.push(central);
    await routeDocuments(central);
    // The central's own counter for the connection is ahead, so its numbers are told apart.
    await central.context.db
      .updateTable('connections')
      .set({ interchange_counter: 700, group_counter: 800 })
      .where('id', '=', EDI_CONNECTION)
      .execute();
    const ediOrder = await stagedOrder(central, BRAND_2, '2');
    const directOrder = await stagedOrder(central, BRAND_1, '4');
    await central.context.db
      .updateTable('orders')
      .set({ bill_of_lading_number: 'BOL-4711' })
      .where('id', 'in', [ediOrder.id, directOrder.id])
      .execute();
    let w1 = await startWorkstation(central.url, DEVICES.w1, { outboxDrain: DRAIN });
    running.push(w1);
    await syncUntilQuiet(w1);

    const auth = await signIn(w1);
    const shipped: string[] = [];
    for (const order of [ediOrder, directOrder]) {
      for (const step of ['load', 'ship']) {
        const answer = await api(w1, auth, 'POST', `/api/v1/orders/${order.id}/${step}`, {});
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        if (step === 'ship') shipped.push(answer.body.message);
      }
    }
    // The answer never says "sent" for a document that only waits for the central.
    expect(shipped[0]).toMatch(/queued .*the central service sends it/);
    expect(shipped[0]).not.toMatch(/was sent/);
    // On the workstation the ASN waits for the central: its sets, no envelope, not sent.
    const [queued] = await documentsOf(w1, ediOrder.id);
    expect(queued).toMatchObject({
      type: '856',
      status: 'queued',
      sender_id: 'central',
      content_type: UNENVELOPED_X12_CONTENT_TYPE,
      interchange_control_number: null,
      sent_at: null,
    });
    const listed = await api(w1, auth, 'GET', `/api/v1/orders/${ediOrder.id}/documents`);
    expect(listed.status).toBe(200);
    const listedRows = listed.body.data as unknown as { id: string }[];
    expect(listedRows.filter((d) => d.id === queued!.id)).toMatchObject([
      { id: queued!.id, status: 'queued' },
    ]);
    // The shipment confirmation is the workstation's to send: it went out at once.
    await eventually(() => requestsTo(DIRECT_CONNECTION).length === 1, 10_000, 'the confirmation');
    expect(requestsTo(EDI_CONNECTION)).toHaveLength(0);

    await syncUntilQuiet(w1);
    await eventually(() => requestsTo(EDI_CONNECTION).length === 1, 10_000, 'the ASN');
    const sentOnCentral = (await eventually(async () => {
      const [row] = await documentsOf(central, ediOrder.id);
      return row?.status === 'sent' ? row : null;
    }))!;
    expect(sentOnCentral).toMatchObject({
      interchange_control_number: 701,
      group_control_number: 801,
      content_type: 'application/edi-x12',
    });
    expect(requestsTo(EDI_CONNECTION)[0]!.body).toBe(sentOnCentral.document);
    expect(sentOnCentral.document).toContain('*000000701*');
    expect(sentOnCentral.document).toContain('ST*856*');

    // Both replicas restart with their drainers running: nothing is sent again.
    const centralDir = central.context.dataDir;
    const centralPort = central.port;
    const w1Dir = w1.context.dataDir;
    await w1.close();
    await central.close();
    running.splice(0);
    central = await restartCentral(centralDir, centralPort);
    running.push(central);
    w1 = await startWorkstation(central.url, DEVICES.w1, { dataDir: w1Dir, outboxDrain: DRAIN });
    running.push(w1);
    await syncUntilQuiet(w1);
    await new Promise((r) => setTimeout(r, 800));
    await syncUntilQuiet(w1);
    expect(requestsTo(EDI_CONNECTION)).toHaveLength(1);
    expect(requestsTo(DIRECT_CONNECTION)).toHaveLength(1);

    // The outcome, the central's envelope and asn_sent_at came back to the workstation.
    const [back] = await documentsOf(w1, ediOrder.id);
    expect(back).toMatchObject({
      status: 'sent',
      sent_at: sentOnCentral.sent_at,
      interchange_control_number: 701,
      document: sentOnCentral.document,
    });
    const orderOnW1 = await w1.context.db
      .selectFrom('orders')
      .select('asn_sent_at')
      .where('id', '=', ediOrder.id)
      .executeTakeFirstOrThrow();
    expect(orderOnW1.asn_sent_at).toBe(sentOnCentral.sent_at);
    // The workstation's own send reached the central, on an order already shipped there.
    const [confirmation] = await documentsOf(central, directOrder.id);
    expect(confirmation).toMatchObject({ status: 'sent', sender_id: DEVICES.w1.id });
    const directOnCentral = await central.context.db
      .selectFrom('orders')
      .select('asn_sent_at')
      .where('id', '=', directOrder.id)
      .executeTakeFirstOrThrow();
    expect(directOnCentral.asn_sent_at).toBe(confirmation!.sent_at);
    const conflicts = await central.context.db.selectFrom('sync_conflicts').selectAll().execute();
    expect(conflicts).toEqual([]);

    // A retry on the workstation of the central's document is refused.
    const retry = await api(
      w1,
      auth,
      'POST',
      `/api/v1/orders/${ediOrder.id}/documents/${queued!.id}/retry`,
      {},
    );
    expect(retry.status).toBe(409);

    // The 997 is taken in on the central; the workstation sees the ASN accepted after a pull.
    const centralAuth = await signIn(central);
    const taken = await postInterchange(
      central,
      centralAuth,
      functionalAck(61, 801, sentOnCentral.transaction_control_number!),
    );
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    await syncUntilQuiet(w1);
    const [accepted] = await documentsOf(w1, ediOrder.id);
    expect(accepted).toMatchObject({ status: 'accepted' });
    expect(accepted!.acknowledged_at).not.toBeNull();
    // Its interchange came too, read-only: the workstation takes no interchange in itself.
    const interchanges = await w1.context.db
      .selectFrom('edi_interchanges')
      .select(['control_number', 'outcome'])
      .where('control_number', '=', '000000061')
      .execute();
    expect(interchanges).toEqual([{ control_number: '000000061', outcome: 'accepted' }]);
    const onW1 = await postInterchange(
      w1,
      auth,
      functionalAck(62, 801, sentOnCentral.transaction_control_number!),
    );
    expect(onW1).toMatchObject({
      status: 409,
      body: {
        message:
          'This is changed on the central service only; a workstation receives it from there',
      },
    });
    expect(requestsTo(EDI_CONNECTION)).toHaveLength(1);
  }, 90_000);

  it('an 850 taken in on the central reaches the devices of its orders with its PO lines, its interchange and its 997, read-only', async () => {
    partner.clear();
    const central = await startCentral({ outboxDrain: DRAIN });
    running.push(central);
    await routeDocuments(central);
    const w1 = await startWorkstation(central.url, DEVICES.w1);
    running.push(w1);
    const w3 = await startWorkstation(central.url, DEVICES.w3);
    running.push(w3);
    const text = readFileSync(new URL('../edi/golden/850-two-orders.edi', import.meta.url), 'utf8')
      .replaceAll('NORTHMARKET    ', 'NORTHWINDMKT   ')
      .replaceAll('ACMEBRANDS     ', 'ACMELOGISTICS  ')
      .replaceAll('NORTHMARKET', 'NORTHWINDMKT')
      .replaceAll('ACMEBRANDS', 'ACMELOGISTICS');
    const taken = await postInterchange(central, await signIn(central), text);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const sets = (taken.body.data as { transaction_sets: { order_id: string }[] }).transaction_sets;
    const orderIds = sets.map((set) => set.order_id);
    const { interchange_id: interchangeId } = taken.body.data as { interchange_id: string };
    expect(orderIds).toHaveLength(2);
    await eventually(() => requestsTo(EDI_CONNECTION).length === 1, 10_000, 'the 997');
    const ack = (await eventually(async () =>
      central.context.db
        .selectFrom('order_documents')
        .selectAll()
        .where('type', '=', '997')
        .where('status', '=', 'sent')
        .where('interchange_id', '=', interchangeId)
        .executeTakeFirst(),
    ))!;
    expect(ack.order_id).toBeNull();

    for (const workstation of [w1, w3]) await syncUntilQuiet(workstation);
    const holds = async (service: RunningService) => ({
      orders: (
        await service.context.db
          .selectFrom('orders')
          .select('id')
          .where('id', 'in', orderIds)
          .execute()
      ).length,
      poLines: (
        await service.context.db
          .selectFrom('order_po_lines')
          .select('line_id')
          .where('order_id', 'in', orderIds)
          .execute()
      ).length,
      // The demo's own interchanges and 997s travel too; these are the test's.
      interchanges: (
        await service.context.db
          .selectFrom('edi_interchanges')
          .select('id')
          .where('id', '=', interchangeId)
          .execute()
      ).length,
      acks: await service.context.db
        .selectFrom('order_documents')
        .select(['id', 'status', 'sender_id'])
        .where('type', '=', '997')
        .where('interchange_id', '=', interchangeId)
        .execute(),
    });
    const poLines = (
      await central.context.db
        .selectFrom('order_po_lines')
        .select('line_id')
        .where('order_id', 'in', orderIds)
        .execute()
    ).length;
    expect(poLines).toBeGreaterThan(0);
    expect(await holds(w1)).toEqual({
      orders: 2,
      poLines,
      interchanges: 1,
      acks: [{ id: ack.id, status: 'sent', sender_id: 'central' }],
    });
    expect(await holds(w3)).toEqual({ orders: 0, poLines: 0, interchanges: 0, acks: [] });
    // Sent once, by the central only; the workstation never sends the 997 it holds.
    expect(requestsTo(EDI_CONNECTION)).toHaveLength(1);
  }, 60_000);

  it('a central that served before documents were replicated gives its existing ones a version at its next start', async () => {
    const first = await startCentral();
    const order = await stagedOrder(first, BRAND_2, '2');
    const id = '1d000000-0000-4000-8000-0000000000a1';
    const sqlite = centralSqlite(first);
    sqlite
      .prepare(
        `INSERT INTO order_documents (id, order_id, brand_id, facility_id, connection_id, type,
           direction, status, sender_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, '856', 'out', 'sent', 'central', '2030-01-01T00:00:00.000Z',
           '2030-01-01T00:00:00.000Z')`,
      )
      .run(id, order.id, order.brand_id, order.facility_id, EDI_CONNECTION);
    // As a central of the release before: its rows of the new tables have no version.
    sqlite.prepare(`DELETE FROM sync_row_versions WHERE tbl = 'order_documents'`).run();
    const before = (
      sqlite.prepare(`SELECT max(version) AS v FROM sync_row_versions`).get() as { v: number }
    ).v;
    const dataDir = first.context.dataDir;
    await first.close();
    const central = await restartCentral(dataDir, 0);
    running.push(central);
    const stamp = await centralRow(
      central,
      'sync_row_versions',
      `tbl = 'order_documents' AND row_key = ?`,
      JSON.stringify([id]),
    );
    expect(stamp).toMatchObject({ facility_id: RENO, order_id: order.id, deleted: 0 });
    expect(Number(stamp!.version)).toBeGreaterThan(before);
    const w1 = await startWorkstation(central.url, DEVICES.w1);
    running.push(w1);
    await syncUntilQuiet(w1);
    expect((await documentsOf(w1, order.id)).map((d) => d.id)).toEqual([id]);
  }, 60_000);

  it('refuses document rows of another facility, documents for a connection the order does not have, and outcomes written by a replica that does not send the document', async () => {
    const central = await startCentral();
    running.push(central);
    await routeDocuments(central);
    const renoOrder = await stagedOrder(central, BRAND_2, '2');
    const savannahOrder = await central.context.db
      .selectFrom('orders')
      .selectAll()
      .where('facility_id', '=', SAVANNAH)
      .where('brand_id', '=', BRAND_1)
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const documentRow = (id: string, order: typeof renoOrder, connectionId: string) => ({
      id,
      order_id: order.id,
      brand_id: order.brand_id,
      facility_id: order.facility_id,
      connection_id: connectionId,
      organization_id: null,
      retailer_id: order.retailer_id,
      type: '856',
      direction: 'out',
      status: 'queued',
      interchange_control_number: null,
      group_control_number: null,
      transaction_control_number: null,
      document: JSON.stringify([[['BSN', '00', 'X', '20300101', '1200']]]),
      content_type: UNENVELOPED_X12_CONTENT_TYPE,
      file_name: null,
      error: null,
      attempts: 0,
      next_attempt_at: at,
      sender_id: 'central',
      sent_at: null,
      acknowledged_at: null,
      created_at: at,
      updated_at: at,
      interchange_id: null,
    });
    const insert = (row: Record<string, unknown> & { id: string }) => ({
      t: 'order_documents',
      op: 'I',
      k: [row.id],
      old: null,
      new: row,
    });
    const w1 = await rawDevice(central, DEVICES.w1);
    const w3 = await rawDevice(central, DEVICES.w3);
    const stored = (id: string) => centralRow(central, 'order_documents', 'id = ?', id);

    // Savannah's device (brand 1 works at both) pushing a document of a Reno order.
    const renoDocument = documentRow(
      '1d000000-0000-4000-8000-000000000001',
      renoOrder,
      EDI_CONNECTION,
    );
    expect((await w3.push([insert(renoDocument)])).status).toBe(200);
    expect(await w3.lastConflictReason()).toBe(
      'The order belongs to a facility this workstation does not serve',
    );
    expect(await stored(renoDocument.id)).toBeUndefined();
    // Reno's device pushing a document of a Savannah order, with and without its scope columns.
    const savannahDocument = documentRow(
      '1d000000-0000-4000-8000-000000000002',
      savannahOrder,
      SAVANNAH_CONNECTION,
    );
    for (const row of [savannahDocument, { ...savannahDocument, facility_id: RENO }]) {
      expect((await w1.push([insert(row)])).status).toBe(200);
      expect(await w1.lastConflictReason()).toBe(
        'The order belongs to a facility this workstation does not serve',
      );
    }
    expect(await stored(savannahDocument.id)).toBeUndefined();
    // A Reno order's document over another organisation's connection.
    const forged = documentRow(
      '1d000000-0000-4000-8000-000000000003',
      renoOrder,
      SAVANNAH_CONNECTION,
    );
    await w1.push([insert(forged)]);
    expect(await w1.lastConflictReason()).toMatch(/connection is not one of its order's brand/);
    expect(await stored(forged.id)).toBeUndefined();
    // A cancelled order wins: no document is sent about it any more.
    const cancelled = await central.context.db
      .selectFrom('orders')
      .selectAll()
      .where('facility_id', '=', RENO)
      .where('status', '=', 'Cancelled')
      .where('brand_id', '=', BRAND_2)
      .executeTakeFirstOrThrow();
    const late = documentRow('1d000000-0000-4000-8000-000000000008', cancelled, EDI_CONNECTION);
    await w1.push([insert(late)]);
    expect(await w1.lastConflictReason()).toBe(
      `Order ${cancelled.picksheet_code} was already Cancelled on the central service`,
    );
    expect(await stored(late.id)).toBeUndefined();
    // A document the central sends must come without an envelope, and without an outcome.
    const enveloped = {
      ...documentRow('1d000000-0000-4000-8000-000000000004', renoOrder, EDI_CONNECTION),
      document: 'ISA*00*…~',
      content_type: 'application/edi-x12',
    };
    await w1.push([insert(enveloped)]);
    expect(await w1.lastConflictReason()).toMatch(/comes as application\/vnd\.x12-sets\+json/);
    const claimed = {
      ...documentRow('1d000000-0000-4000-8000-000000000005', renoOrder, EDI_CONNECTION),
      status: 'sent',
      sent_at: at,
      attempts: 3,
      interchange_control_number: 5,
      brand_id: BRAND_1,
    };
    expect((await w1.push([insert(claimed)])).body.applied).toBe(1);
    expect(await stored(claimed.id)).toMatchObject({
      status: 'queued',
      sent_at: null,
      attempts: 0,
      interchange_control_number: null,
      brand_id: BRAND_2,
      organization_id: '0a000000-0000-4000-8000-000000000001',
    });
    // Its outcome is the central's to write: the device's "sent" is refused.
    const before = (await stored(claimed.id))!;
    await w1.push([
      {
        t: 'order_documents',
        op: 'U',
        k: [claimed.id],
        old: before,
        new: { ...before, status: 'sent', sent_at: at },
      },
    ]);
    expect(await w1.lastConflictReason()).toBe(
      'Only the replica that sends a document records its outcome',
    );
    expect(await stored(claimed.id)).toMatchObject({ status: 'queued', sent_at: null });
    // A device's own document keeps what it sent; a 997 it never records; nothing is deleted.
    const own = {
      ...documentRow('1d000000-0000-4000-8000-000000000006', renoOrder, EDI_CONNECTION),
      sender_id: DEVICES.w1.id,
      document: 'ISA*…~',
      content_type: 'application/edi-x12',
    };
    expect((await w1.push([insert(own)])).body.applied).toBe(1);
    await w1.push([insert({ ...own, id: '1d000000-0000-4000-8000-000000000007', type: '997' })]);
    expect(await w1.lastConflictReason()).toBe(
      'A workstation records only the outbound documents of its orders',
    );
    // A 997 came in on the central before the device's send record: accepted stays.
    centralSqlite(central)
      .prepare(`UPDATE order_documents SET status = 'accepted', acknowledged_at = ? WHERE id = ?`)
      .run(at, own.id);
    const sentAt = new Date(Date.now() + 1000).toISOString();
    const answer = await w1.push([
      {
        t: 'order_documents',
        op: 'U',
        k: [own.id],
        old: own,
        new: { ...own, status: 'sent', sent_at: sentAt, attempts: 1, updated_at: sentAt },
      },
    ]);
    expect(answer.body.applied).toBe(1);
    expect(await stored(own.id)).toMatchObject({
      status: 'accepted',
      acknowledged_at: at,
      sent_at: sentAt,
      attempts: 1,
    });
    await w1.push([{ t: 'order_documents', op: 'D', k: [own.id], old: own, new: null }]);
    expect(await w1.lastConflictReason()).toBe(
      'A order document is never deleted by a workstation',
    );
    expect(await stored(own.id)).toBeDefined();
    // Interchanges and PO lines are the central's.
    await w1.push([
      {
        t: 'edi_interchanges',
        op: 'I',
        k: ['1e000000-0000-4000-8000-000000000001'],
        old: null,
        new: { id: '1e000000-0000-4000-8000-000000000001', raw: 'x' },
      },
    ]);
    expect(await w1.lastConflictReason()).toBe('Table edi_interchanges is written centrally only');
  }, 60_000);
});
