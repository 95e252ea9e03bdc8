import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRINTER_FAILED_MESSAGE } from '../../src/server/documents/label-printer';
import { expectError } from '../api/envelope';
import { movableClock } from '../helpers/clock';
import { installAdmin } from '../helpers/fixtures';
import { signedInService } from '../helpers/signed-in';
import { cartonId, documentsBundle, loadPdf, orderId, pageText, palletId, sscc } from './fixtures';
import { refusedPort, startLoopbackPrinter, type LoopbackPrinter } from './printer-loopback';

const USERS = [
  'admin@a.test',
  'brand1@a.test',
  'charlie1@b.test',
  'viewer@a.test',
  'bravo@a.test',
  'install@a.test',
] as const;
type User = (typeof USERS)[number];

const clock = movableClock();
const api = signedInService(USERS, () => {
  const bundle = documentsBundle();
  // bravo@a.test: brand-less, Bravo DC only (the same organisation as Alpha, another facility).
  bundle.users.push({
    email: 'bravo@a.test',
    password: 'correct-horse-battery',
    brand_id: null,
    facility_ids: [bundle.facilities[1]!.id],
    admin: [],
  });
  // install@a.test: an admin at every facility of the install (the printer is theirs to set).
  bundle.users.push(installAdmin(bundle));
  return { seed: bundle, clock };
});

beforeAll(async () => {
  // Order 5 (PARCEL): two loose cartons, on no pallet.
  for (const n of [51, 52]) {
    await api.svc.ctx.db
      .insertInto('cartons')
      .values({
        id: cartonId(n),
        order_id: orderId(5),
        pallet_id: null,
        sscc: sscc(n),
        created_at: `2026-01-06T10:${n}:00.000Z`,
        packed_by: null,
        packing_complete_at: null,
        parcel_tracking_number: `1Z${n}`,
        dim_unit: null,
        height: null,
        width: null,
        length: null,
        weight_unit: null,
        weight: null,
      })
      .execute();
    await api.svc.ctx.db
      .insertInto('carton_skus')
      .values({ id: randomUUID(), carton_id: cartonId(n), sku: 'SKU-A', upc: null, quantity: 1 })
      .execute();
  }
});
afterEach(async () => {
  await api.svc.ctx.db.deleteFrom('order_activity').execute();
  await api.svc.ctx.db.deleteFrom('app_settings').execute();
});

const { get } = api;
const send = (user: User, method: 'POST' | 'PUT', url: string, payload: unknown) =>
  api.svc.app.inject({
    method,
    url,
    headers: { authorization: api.tokens[user] },
    payload: payload as object,
  });

const activity = () =>
  api.svc.ctx.db
    .selectFrom('order_activity')
    .selectAll()
    .orderBy('metric')
    .orderBy('sscc')
    .execute();

const CARTON_SSCCS = [sscc(1), sscc(2), sscc(3)];
const PALLET_SSCCS = [sscc(101, 1), sscc(102, 1)];

describe('GET /api/v1/orders/{order_id}/labels', () => {
  it('one 4 x 6 in PDF page per carton, then per pallet, each with its SSCC', async () => {
    const response = await get('admin@a.test', `/api/v1/orders/${orderId(1)}/labels`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('labels-gs1-PS-7001.pdf');
    const doc = await loadPdf(response.rawPayload);
    expect(doc.getPageCount()).toBe(5);
    const expected = [...CARTON_SSCCS, ...PALLET_SSCCS];
    doc.getPages().forEach((page, i) => {
      expect(page.getSize()).toEqual({ width: 288, height: 432 });
      expect(pageText(page)).toContain(`(00) ${expected[i]}`);
    });
    const first = pageText(doc.getPage(0));
    expect(first).toContain('Retailer DC 7');
    expect(first).toContain('Brand One');
    expect(first).toContain('c/o Alpha DC');
    expect(first).toContain('PO-7001');
    expect(first).toContain('XPO Logistics');
    expect(first).toContain('CARTON 1 OF 3');
    expect(pageText(doc.getPage(3))).toContain('PALLET 1 OF 2');
    expect(pageText(doc.getPage(3))).toContain('2 cartons · 8 units');
    // A download is not a print unless asked.
    expect(await activity()).toEqual([]);
  });

  it('units, kind and format narrow and shape it; ZPL is text', async () => {
    const pallets = await get(
      'admin@a.test',
      `/api/v1/orders/${orderId(1)}/labels?units=pallets&kind=qr`,
    );
    expect((await loadPdf(pallets.rawPayload)).getPageCount()).toBe(2);
    const placards = await get('admin@a.test', `/api/v1/orders/${orderId(1)}/labels?kind=placard`);
    expect((await loadPdf(placards.rawPayload)).getPageCount()).toBe(2);
    const zpl = await get(
      'admin@a.test',
      `/api/v1/orders/${orderId(1)}/labels?units=cartons&format=zpl`,
    );
    expect(zpl.statusCode).toBe(200);
    expect(zpl.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(zpl.body.match(/\^XA/g)).toHaveLength(3);
    for (const code of CARTON_SSCCS)
      expect(zpl.body).toContain(`^BCN,300,N,N,N^FD>;>800${code}^FS`);
  });

  it('loose cartons of a parcel order get labels too', async () => {
    const response = await get('admin@a.test', `/api/v1/orders/${orderId(5)}/labels`);
    const doc = await loadPdf(response.rawPayload);
    expect(doc.getPageCount()).toBe(2);
    expect(pageText(doc.getPage(1))).toContain(`(00) ${sscc(52)}`);
  });

  it('while packing is open, carton labels carry no total ("CARTON 1", not "1 OF 2")', async () => {
    // More cartons may follow a label printed now, so a total would be wrong on the dock.
    await api.svc.ctx.db
      .updateTable('orders')
      .set({ status: 'Picking' })
      .where('id', '=', orderId(5))
      .execute();
    const pdf = await get('admin@a.test', `/api/v1/orders/${orderId(5)}/labels`);
    const text = (await loadPdf(pdf.rawPayload)).getPages().map(pageText).join('\n');
    expect(text).toContain('CARTON 1');
    expect(text).toContain('CARTON 2');
    expect(text).not.toMatch(/CARTON \d+ OF/);
    const zpl = await get('admin@a.test', `/api/v1/orders/${orderId(5)}/labels?format=zpl`);
    expect(zpl.body).toContain('^FDCARTON 1^FS');
    expect(zpl.body).not.toMatch(/CARTON \d+ OF/);
    // Packing complete: the same labels again, now with the total.
    await api.svc.ctx.db
      .updateTable('orders')
      .set({ status: 'Packed' })
      .where('id', '=', orderId(5))
      .execute();
    const again = await get('admin@a.test', `/api/v1/orders/${orderId(5)}/labels?format=zpl`);
    expect(again.body).toContain('^FDCARTON 1 OF 2^FS');
    expect(again.body).toContain('^FDCARTON 2 OF 2^FS');
  });

  it('record=true counts each label as printed, with its unit and SSCC', async () => {
    const response = await get('brand1@a.test', `/api/v1/orders/${orderId(1)}/labels?record=true`);
    expect(response.statusCode).toBe(200);
    const rows = await activity();
    expect(rows.map((r) => [r.kind, r.metric, r.count, r.carton_id, r.pallet_id, r.sscc])).toEqual([
      ['LABEL_PRINT', 'Carton Label Printed - GS1 Label', 1, cartonId(1), null, CARTON_SSCCS[0]],
      ['LABEL_PRINT', 'Carton Label Printed - GS1 Label', 1, cartonId(2), null, CARTON_SSCCS[1]],
      ['LABEL_PRINT', 'Carton Label Printed - GS1 Label', 1, cartonId(3), null, CARTON_SSCCS[2]],
      ['LABEL_PRINT', 'Pallet Label Printed - GS1 Label', 1, null, palletId(1), PALLET_SSCCS[0]],
      ['LABEL_PRINT', 'Pallet Label Printed - GS1 Label', 1, null, palletId(2), PALLET_SSCCS[1]],
    ]);
    const user = await api.svc.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'brand1@a.test')
      .executeTakeFirstOrThrow();
    for (const row of rows) {
      expect(row.order_id).toBe(orderId(1));
      expect(row.user_id).toBe(user.id);
    }
  });

  it('60 parallel recorded downloads record 60 labels each time, none lost', async () => {
    const url = `/api/v1/orders/${orderId(1)}/labels/pallets/${palletId(1)}?kind=placard&record=true`;
    const responses = await Promise.all(Array.from({ length: 60 }, () => get('admin@a.test', url)));
    for (const response of responses) expect(response.statusCode).toBe(200);
    const rows = await activity();
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((r) => r.metric))).toEqual(new Set(['Pallet Label Printed - Placard']));
  });

  it('another tenant’s order answers like an unknown one, also for a grant at another facility of the brand', async () => {
    for (const user of ['charlie1@b.test', 'bravo@a.test'] as const) {
      expectError(
        await get(user, `/api/v1/orders/${orderId(1)}/labels`),
        404,
        'NOT_FOUND',
        'Order not found',
      );
    }
    expectError(
      await get('admin@a.test', `/api/v1/orders/${orderId(99)}/labels`),
      404,
      'NOT_FOUND',
      'Order not found',
    );
    // brand1@a.test sees brand 1 at Charlie; admin@a.test (Alpha, Bravo) does not.
    expect(
      (await get('brand1@a.test', `/api/v1/orders/${orderId(4)}/labels/cartons/${cartonId(1)}`))
        .statusCode,
    ).toBe(404);
    expectError(
      await get('admin@a.test', `/api/v1/orders/${orderId(4)}/labels`),
      404,
      'NOT_FOUND',
      'Order not found',
    );
  });

  it('bad input and states: 400, 404 for a unit of another order, 409 without valid SSCCs or units', async () => {
    expectError(
      await get('admin@a.test', '/api/v1/orders/not-a-uuid/labels'),
      400,
      'INVALID_REQUEST',
      'Invalid order ID format',
    );
    expectError(
      await get('admin@a.test', `/api/v1/orders/${orderId(1)}/labels?kind=parcel`),
      400,
      'INVALID_REQUEST',
      'Invalid query parameters',
    );
    expectError(
      await get('admin@a.test', `/api/v1/orders/${orderId(1)}/labels?record=yes`),
      400,
      'INVALID_REQUEST',
      'Invalid query parameters',
    );
    expectError(
      await get(
        'admin@a.test',
        `/api/v1/orders/${orderId(1)}/labels/cartons/${cartonId(1)}?kind=placard`,
      ),
      400,
      'INVALID_REQUEST',
      'Placards are printed for pallets only',
    );
    expectError(
      await get('admin@a.test', `/api/v1/orders/${orderId(1)}/labels/boxes/${cartonId(1)}`),
      400,
      'INVALID_REQUEST',
      'Invalid order or unit ID',
    );
    expectError(
      await get('admin@a.test', `/api/v1/orders/${orderId(1)}/labels/cartons/${cartonId(21)}`),
      404,
      'NOT_FOUND',
      'Carton not found',
    );
    expectError(
      await get('admin@a.test', `/api/v1/orders/${orderId(1)}/labels/pallets/${cartonId(1)}`),
      404,
      'NOT_FOUND',
      'Pallet not found',
    );
    const bad = expectError(
      await get('admin@a.test', `/api/v1/orders/${orderId(3)}/labels?record=true`),
      409,
      'INVALID_REQUEST',
      'Labels need a valid SSCC on every carton and pallet',
    );
    expect((bad.error as { details?: string }).details).toBe(
      `carton 1 (${cartonId(21)}): SSCC 006141410000000025 has check digit 5, expected 9`,
    );
    expectError(
      await get('admin@a.test', `/api/v1/orders/${orderId(2)}/labels`),
      409,
      'INVALID_REQUEST',
      'The order has no cartons or pallets to label',
    );
    // The pallet of order 3 is fine on its own.
    expect(
      (await get('admin@a.test', `/api/v1/orders/${orderId(3)}/labels?units=pallets`)).statusCode,
    ).toBe(200);
    expect(await activity()).toEqual([]);
  });

  it('one label of one unit', async () => {
    const response = await get(
      'viewer@a.test',
      `/api/v1/orders/${orderId(1)}/labels/cartons/${cartonId(2)}?kind=qr`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(
      `labels-qr-PS-7001-${CARTON_SSCCS[1]}.pdf`,
    );
    const doc = await loadPdf(response.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(pageText(doc.getPage(0))).toContain(`https://id.gs1.org/00/${CARTON_SSCCS[1]}`);
    expect(pageText(doc.getPage(0))).toContain('CARTON 2 OF 3');
  });
});

describe('label printer setting', () => {
  const URL = '/api/v1/settings/label-printer';

  it('is unset at first; an admin sets it; anyone signed in reads it', async () => {
    const first = await get('viewer@a.test', URL);
    expect(first.json()).toEqual({
      message: 'Label printer retrieved successfully',
      data: { host: null, port: 9100, updated_at: null },
    });
    const put = await send('install@a.test', 'PUT', URL, { host: ' zebra-1.lan ' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({
      message: 'Label printer saved',
      data: { host: 'zebra-1.lan', port: 9100 },
    });
    const read = await get('viewer@a.test', URL);
    expect(read.json().data).toMatchObject({ host: 'zebra-1.lan', port: 9100 });
    expect(typeof read.json().data.updated_at).toBe('string');
    await send('install@a.test', 'PUT', URL, { host: '10.0.0.7', port: 6101 });
    expect((await get('admin@a.test', URL)).json().data).toMatchObject({
      host: '10.0.0.7',
      port: 6101,
    });
  });

  it('only an install admin (an admin at every facility here) may change or remove it', async () => {
    await send('install@a.test', 'PUT', URL, { host: '10.0.0.9' });
    // viewer: no admin grant; bravo: no grant; admin@a.test: an admin of one facility of two in
    // its organisation; brand1@a.test: the brand's admin at a facility of each organisation,
    // but not at every facility of the install.
    for (const user of [
      'viewer@a.test',
      'bravo@a.test',
      'admin@a.test',
      'brand1@a.test',
    ] as const) {
      for (const method of ['PUT', 'DELETE'] as const) {
        const error = expectError(
          await api.svc.app.inject({
            method,
            url: URL,
            headers: { authorization: api.tokens[user] },
            ...(method === 'PUT' ? { payload: { host: '10.0.0.7' } } : {}),
          }),
          403,
          'UNAUTHORIZED',
          'Unauthorized',
        );
        expect(error.error).toEqual({
          code: 'UNAUTHORIZED',
          details: 'Only an admin of every facility on this install may change this setting',
        });
      }
    }
    expect((await get('viewer@a.test', URL)).json().data.host).toBe('10.0.0.9');
  });

  it('an install admin removes the printer; then it reads as unset', async () => {
    await send('install@a.test', 'PUT', URL, { host: '10.0.0.9' });
    const removed = await api.svc.app.inject({
      method: 'DELETE',
      url: URL,
      headers: { authorization: api.tokens['install@a.test'] },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({
      message: 'Label printer removed; labels are saved as PDFs',
      data: { host: null, port: 9100, updated_at: null },
    });
    expect((await get('viewer@a.test', URL)).json().data).toEqual({
      host: null,
      port: 9100,
      updated_at: null,
    });
    // Removing again is fine (nothing to remove).
    const again = await api.svc.app.inject({
      method: 'DELETE',
      url: URL,
      headers: { authorization: api.tokens['install@a.test'] },
    });
    expect(again.statusCode).toBe(200);
  });

  it('validates host and port', async () => {
    const cases: [unknown, string][] = [
      [{}, 'host: is required'],
      [{ host: 'bad host!' }, 'host: must be a host name or an IP address'],
      [{ host: '-x.lan' }, 'host: must be a host name or an IP address'],
      [{ host: 'zebra', port: 0 }, 'port: must be between 1 and 65535'],
      [{ host: 'zebra', port: 70000 }, 'port: must be between 1 and 65535'],
      [{ host: 'zebra', port: 91.5 }, 'port: must be a whole number'],
      [{ host: 'zebra', port: '9100' }, 'port: must be a whole number'],
      // Printer ports only.
      ...[22, 80, 443, 8787, 9103, 631].map((port): [unknown, string] => [
        { host: 'zebra', port },
        'port: must be a printer port: 9100, 9101, 9102, 6101, 515',
      ]),
      // Never this machine or a link-local address.
      ...[
        '127.0.0.1',
        '127.1.2.3',
        'localhost',
        'LOCALHOST',
        'printer.localhost',
        '::1',
        '::ffff:127.0.0.1',
        '169.254.169.254',
        'fe80::1',
        '0.0.0.0',
        '::',
        '224.0.0.251',
      ].map((host): [unknown, string] => [
        { host },
        'host: must be a printer on the network, not this machine or a link-local address',
      ]),
    ];
    for (const [body, details] of cases) {
      const error = expectError(
        await send('install@a.test', 'PUT', URL, body),
        400,
        'INVALID_REQUEST',
        'Invalid label printer',
      );
      expect((error.error as { details?: string }).details).toBe(details);
    }
    const extra = expectError(
      await send('install@a.test', 'PUT', URL, { host: 'zebra', colour: 'red' }),
      400,
      'INVALID_REQUEST',
      'Invalid label printer',
    );
    expect((extra.error as { details?: string }).details).toMatch(/colour/);
    for (const port of [9100, 9101, 9102, 6101, 515]) {
      expect(
        (await send('install@a.test', 'PUT', URL, { host: '2001:db8::7', port })).statusCode,
      ).toBe(200);
    }
  });

  it('a hand-edited stored value that is not a printer reads as unset', async () => {
    for (const value of ['{"host":"bad host!"}', 'not json']) {
      await api.svc.ctx.db
        .insertInto('app_settings')
        .values({ key: 'label_printer', value_json: value, updated_at: '2026-01-07T12:00:00.000Z' })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value_json: value }))
        .execute();
      const read = await get('viewer@a.test', URL);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json().data).toEqual({
        host: null,
        port: 9100,
        updated_at: '2026-01-07T12:00:00.000Z',
      });
    }
  });
});

describe('POST /api/v1/orders/{order_id}/labels/print', () => {
  let printer: LoopbackPrinter | undefined;
  afterEach(async () => {
    await printer?.close();
    printer = undefined;
    api.svc.ctx.labelPrinterNetwork = undefined;
    clock.offsetMs += 61_000; // past the print rate's minute
  });
  /** The printer as an admin sets it: a LAN address (TEST-NET-1) on the raw port. */
  const PRINTER = { host: '192.0.2.10', port: 9100 };
  /**
   * The test seam: connections to the printer's (checked) address go to a loopback listener. The
   * service itself never allows a loopback printer.
   */
  const leadTo = (port: number, addresses = ['192.0.2.10']) => {
    api.svc.ctx.labelPrinterNetwork = {
      lookup: () => Promise.resolve(addresses.map((address) => ({ address }))),
      connect: () => connect({ port, host: '127.0.0.1' }),
    };
  };
  const setPrinter = async (port: number, host = PRINTER.host) => {
    leadTo(port);
    const answer = await send('install@a.test', 'PUT', '/api/v1/settings/label-printer', {
      host,
      port: PRINTER.port,
    });
    expect(answer.statusCode, answer.body).toBe(200);
  };
  const print = (user: User, body: unknown, order = orderId(1)) =>
    send(user, 'POST', `/api/v1/orders/${order}/labels/print`, body);

  it('sends the ZPL to the printer and then records the prints', async () => {
    printer = await startLoopbackPrinter();
    await setPrinter(printer.port);
    const response = await print('viewer@a.test', { kind: 'gs1', units: 'cartons' });
    expect(response.statusCode, response.body).toBe(200);
    const [job] = await printer.waitForJobs(1);
    const zpl = job!.toString('utf8');
    expect(response.json()).toEqual({
      message: 'Labels sent to the printer',
      data: { labels: 3, bytes: job!.length, printer: PRINTER },
    });
    expect(zpl.match(/\^XA/g)).toHaveLength(3);
    for (const code of CARTON_SSCCS) expect(zpl).toContain(`>;>800${code}`);
    const rows = await activity();
    expect(rows.map((r) => [r.metric, r.carton_id])).toEqual([
      ['Carton Label Printed - GS1 Label', cartonId(1)],
      ['Carton Label Printed - GS1 Label', cartonId(2)],
      ['Carton Label Printed - GS1 Label', cartonId(3)],
    ]);
  });

  it('named units only; a QR print of a pallet records its metric', async () => {
    printer = await startLoopbackPrinter();
    await setPrinter(printer.port);
    const response = await print('admin@a.test', { kind: 'qr', pallet_ids: [palletId(2)] });
    expect(response.json().data.labels).toBe(1);
    expect((await activity()).map((r) => [r.metric, r.pallet_id, r.sscc])).toEqual([
      ['Pallet Label Printed - QR Code', palletId(2), PALLET_SSCCS[1]],
    ]);
  });

  it('60 parallel prints by one user: 30 go through, 30 get 429; another user still prints', async () => {
    printer = await startLoopbackPrinter();
    await setPrinter(printer.port);
    const responses = await Promise.all(
      Array.from({ length: 60 }, () => print('admin@a.test', { kind: 'placard' })),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(30);
    expect(codes.filter((c) => c === 429)).toHaveLength(30);
    const limited = responses.find((r) => r.statusCode === 429)!;
    expect(limited.json().message).toMatch(
      /^Too many prints: at most 30 a minute; try again in \d+ s$/,
    );
    expect(await printer.waitForJobs(30)).toHaveLength(30);
    expect(await activity()).toHaveLength(60);
    // The limit is per user.
    expect((await print('viewer@a.test', { kind: 'placard' })).statusCode).toBe(200);
    // A minute later the user prints again.
    clock.offsetMs += 61_000;
    expect((await print('admin@a.test', { kind: 'placard' })).statusCode).toBe(200);
  });

  it('every connection failure is one 502 message, and nothing is recorded', async () => {
    const failures = [];
    // Refused (nothing listens).
    await setPrinter(await refusedPort());
    failures.push(await print('admin@a.test', {}));
    // A name that does not resolve.
    api.svc.ctx.labelPrinterNetwork = {
      lookup: () => Promise.reject(Object.assign(new Error('no'), { code: 'ENOTFOUND' })),
    };
    await send('install@a.test', 'PUT', '/api/v1/settings/label-printer', { host: 'zebra.lan' });
    failures.push(await print('admin@a.test', {}));
    for (const failure of failures) {
      const error = expectError(failure, 502, 'INTERNAL_SERVER_ERROR', PRINTER_FAILED_MESSAGE);
      expect(error.error).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
    }
    expect(await activity()).toEqual([]);
  });

  it('a name lookup that never answers runs out the one deadline: 502, nothing recorded', async () => {
    printer = await startLoopbackPrinter();
    await setPrinter(printer.port, 'zebra.lan');
    api.svc.ctx.labelPrinterNetwork = {
      lookup: () => new Promise(() => undefined),
      connect: () => connect({ port: printer!.port, host: '127.0.0.1' }),
      timeoutMs: 200,
    };
    const started = Date.now();
    const failure = await print('admin@a.test', {});
    expect(Date.now() - started).toBeLessThan(3_000);
    expectError(failure, 502, 'INTERNAL_SERVER_ERROR', PRINTER_FAILED_MESSAGE);
    expect(printer.jobs).toEqual([]);
    expect(await activity()).toEqual([]);
  });

  it('a printer NAME that resolves to loopback or link-local is refused before connecting', async () => {
    printer = await startLoopbackPrinter();
    await setPrinter(printer.port, 'zebra.lan');
    for (const address of ['127.0.0.1', '169.254.169.254', '::1', 'fe80::1']) {
      leadTo(printer.port, [address]);
      expectError(
        await print('admin@a.test', {}),
        409,
        'INVALID_REQUEST',
        `The label printer cannot be at zebra.lan:9100 (it resolves to ${address}, a loopback, link-local or broadcast address); an admin sets another in Settings`,
      );
    }
    expect(printer.jobs).toEqual([]);
    expect(await activity()).toEqual([]);
  });

  it("a printer on the service's own port is refused", async () => {
    printer = await startLoopbackPrinter();
    await setPrinter(printer.port);
    api.svc.ctx.servicePorts = [9100];
    try {
      expectError(
        await print('admin@a.test', {}),
        409,
        'INVALID_REQUEST',
        'The label printer cannot be at 192.0.2.10:9100 (a port of this service); an admin sets another in Settings',
      );
    } finally {
      api.svc.ctx.servicePorts = undefined;
    }
    expect(printer.jobs).toEqual([]);
  });

  it('no printer set: 409; bad bodies: 400; other tenants: 404', async () => {
    expectError(
      await print('admin@a.test', {}),
      409,
      'INVALID_REQUEST',
      'No label printer is set; set one in the label printer settings',
    );
    expectError(
      await print('admin@a.test', { kind: 'laser' }),
      400,
      'INVALID_REQUEST',
      'Invalid print request',
    );
    expectError(
      await print('admin@a.test', { carton_ids: [] }),
      400,
      'INVALID_REQUEST',
      'Invalid print request',
    );
    const tooMany = Array.from({ length: 1001 }, (_, i) => cartonId(1000 + i));
    const capped = expectError(
      await print('admin@a.test', { carton_ids: tooMany }),
      400,
      'INVALID_REQUEST',
      'Invalid print request',
    );
    expect((capped.error as { details?: string }).details).toMatch(/^carton_ids: Too big/);
    expectError(await print('charlie1@b.test', {}), 404, 'NOT_FOUND', 'Order not found');
    expectError(
      await print('admin@a.test', { carton_ids: [cartonId(51)] }),
      404,
      'NOT_FOUND',
      'Carton not found',
    );
  });
});

describe('GET /api/v1/orders/{order_id}/packing-slip', () => {
  it('a Letter PDF with the identifiers, ship-to, lines ordered and packed, and cartons', async () => {
    const response = await get('admin@a.test', `/api/v1/orders/${orderId(1)}/packing-slip`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain('packing-slip-PS-7001.pdf');
    const doc = await loadPdf(response.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getSize()).toEqual({ width: 612, height: 792 });
    const text = pageText(doc.getPage(0));
    for (const expected of [
      'PACKING SLIP',
      'PO number: PO-7001',
      'Picksheet: PS-7001',
      'External order: EXT-7001',
      'Packed at: 6 Jan 2026, 12:00 UTC',
      'Shipped at: 7 Jan 2026, 16:00 UTC',
      'Retailer DC 7',
      'Reno, NV 89501',
      'Lines (2): 10 of 10 units packed',
      'Cartons (3)',
      CARTON_SSCCS[0]!,
      PALLET_SSCCS[1]!,
    ]) {
      expect(text).toContain(expected);
    }
    // Clerks and retailers know the order by picksheet and PO, not by its database id or UTC text.
    expect(text).not.toContain(orderId(1));
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(await activity()).toEqual([]);
  });

  it('record=true counts one packing slip', async () => {
    await get('admin@a.test', `/api/v1/orders/${orderId(5)}/packing-slip?record=true`);
    const rows = await activity();
    expect(rows.map((r) => [r.kind, r.metric, r.count, r.order_id])).toEqual([
      ['PACKING_SLIP', 'Packing Slips', 1, orderId(5)],
    ]);
  });

  it('other tenants and unknown orders: 404', async () => {
    expectError(
      await get('bravo@a.test', `/api/v1/orders/${orderId(1)}/packing-slip`),
      404,
      'NOT_FOUND',
      'Order not found',
    );
    expectError(
      await get('charlie1@b.test', `/api/v1/orders/${orderId(1)}/packing-slip`),
      404,
      'NOT_FOUND',
      'Order not found',
    );
  });

  it('many lines flow onto more pages with the table header repeated', async () => {
    const items = Array.from({ length: 120 }, (_, i) => ({ sku: `SKU-${i}`, quantity: 1 }));
    await api.svc.ctx.db.deleteFrom('order_items').where('order_id', '=', orderId(2)).execute();
    await api.svc.ctx.db
      .insertInto('order_items')
      .values(
        items.map((item, i) => ({
          id: `4d000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          order_id: orderId(2),
          line_number: i,
          sku: item.sku,
          upc: null,
          quantity: item.quantity,
          case_pack_quantity: null,
          case_barcode: null,
          vendor_pn: null,
          description: null,
          trackers_json: null,
          pass_through_json: null,
        })),
      )
      .execute();
    const doc = await loadPdf(
      (await get('admin@a.test', `/api/v1/orders/${orderId(2)}/packing-slip`)).rawPayload,
    );
    expect(doc.getPageCount()).toBeGreaterThan(1);
    expect(pageText(doc.getPage(1))).toContain('Packing slip, PO PO-7002 (page 2)');
    expect(pageText(doc.getPage(1))).toContain('Ordered');
  });
});
