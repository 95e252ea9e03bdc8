/**
 * `kill -9` between the ship commit and the ASN's delivery (issue 16 item 5: "the ASN goes out
 * through the outbox, exactly once, surviving a crash"), with a real service process. The
 * partner holds the first ASN request unanswered, so the process dies with the 856 committed,
 * on the wire, and its outcome not recorded. After the restart the drainer sends it again by
 * itself: the partner gets exactly one delivery after the restart, byte for byte the same
 * document with the same ISA13 and Idempotency-Key as the held one (so a partner that
 * de-duplicates by either keeps one ASN), `asn_sent_at` is set, and later passes send nothing.
 * Delivery is at-least-once in that window: the process cannot know whether the partner took the
 * held request, so it sends again, and the unchanged keys make the repeat harmless.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hang, ok, startReceiver, type Receiver } from '../helpers/receivers';
import { TEST_PASSWORD } from '../helpers/service';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { isa13Of, sleep } from '../inventory/support';
import {
  startServiceProcess,
  stopAllServiceProcesses,
  type ServiceProcess,
} from '../sync/helpers/service-process';
import { asnBundle, ORDERS } from './support';

const PACKER = 'packer@a.test';
const ORDER = ORDERS.parcel;
/** The drainer's default interval (inventory's outbox-drainer.ts): one more pass fits in this. */
const ONE_MORE_PASS_MS = 6_000;

async function call(service: ServiceProcess, token: string | null, path: string, body?: unknown) {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  const json = (await response.json()) as { message?: string; data: Record<string, unknown> };
  if (response.status >= 300) {
    throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  }
  return json;
}

function readDatabase<T>(dataDir: string, read: (db: SQLite.Database) => T): T {
  const db = new SQLite(join(dataDir, 'app.sqlite'), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe('kill -9 between the ship commit and the ASN send', () => {
  const tempDir = tempDirsPerTest('edi-ship-crash');
  let partner: Receiver;

  beforeAll(async () => {
    partner = await startReceiver(hang, 'crash-partner');
  });
  afterAll(async () => {
    await stopAllServiceProcesses();
    await partner?.close();
  });

  it('after the restart the partner receives the ASN once more, with the same ISA13 and Idempotency-Key, and asn_sent_at is set', async () => {
    const root = tempDir();
    const bundle = asnBundle(partner.url);
    // One user: less to hash at start.
    bundle.users = bundle.users.filter((user) => user.email === PACKER);
    const seedPath = join(root, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(bundle));
    const dataDir = join(root, 'data');
    const service = await startServiceProcess({
      name: 'ship-crash',
      dataDir,
      args: ['--seed', seedPath],
    });

    // 1. Pack, load and ship; the partner holds the ASN request, so the answer says queued.
    const signIn = await call(service, null, '/api/auth/token', {
      email: PACKER,
      password: TEST_PASSWORD,
    });
    const token = `Bearer ${signIn.data['access_token'] as string}`;
    const at = (step: string) => `/api/v1/orders/${ORDER}/${step}`;
    await call(service, token, at('start-picking'));
    await call(service, token, at('cartons'), { skus: [{ sku: 'SKU-RED', quantity: 2 }] });
    for (const step of ['complete-packing', 'stage', 'load']) await call(service, token, at(step));
    const shipped = await call(service, token, at('ship'));
    expect(shipped.message).toBe('Order shipped; the ASN is queued for Retailer One');
    const [held] = await partner.waitFor(1, 15_000);

    // 2. The crash: the 856 is committed and on the wire, its outcome not recorded.
    await service.kill9();
    const left = readDatabase(dataDir, (db) => ({
      documents: db
        .prepare(`SELECT id, status, document FROM order_documents WHERE order_id = ?`)
        .all(ORDER) as { id: string; status: string; document: string }[],
      order: db.prepare(`SELECT status, asn_sent_at FROM orders WHERE id = ?`).get(ORDER),
    }));
    expect(left.order).toEqual({ status: 'Shipped', asn_sent_at: null });
    expect(left.documents).toHaveLength(1);
    const [document] = left.documents;
    expect(document).toMatchObject({ status: 'queued', document: held!.body });
    expect(held!.headers['idempotency-key']).toBe(document!.id);

    // 3. Restart on the same data dir; the partner answers now. Nobody asks for a retry.
    partner.handle(ok);
    await service.restart();
    await partner.waitFor(2, 20_000);
    let row: { status: string; sent_at: string | null; attempts: number } | undefined;
    for (let i = 0; i < 300 && row?.status !== 'sent'; i++) {
      if (i > 0) await sleep(20);
      row = readDatabase(dataDir, (db) =>
        db
          .prepare(`SELECT status, sent_at, attempts FROM order_documents WHERE id = ?`)
          .get(document!.id),
      ) as typeof row;
    }
    expect(row).toMatchObject({ status: 'sent' });
    const order = readDatabase(dataDir, (db) =>
      db.prepare(`SELECT asn_sent_at FROM orders WHERE id = ?`).get(ORDER),
    ) as { asn_sent_at: string | null };
    expect(order.asn_sent_at).toBe(row!.sent_at);

    // Later passes send nothing more: once after the restart, the same ASN as the held request.
    await sleep(ONE_MORE_PASS_MS);
    expect(partner.received).toHaveLength(2);
    const [, resent] = partner.received;
    expect(resent!.body).toBe(held!.body);
    expect(isa13Of(resent!.body)).toBe(isa13Of(held!.body));
    expect(resent!.headers['idempotency-key']).toBe(held!.headers['idempotency-key']);
    const distinct = new Set(partner.received.map((r) => r.headers['idempotency-key']));
    expect(distinct.size).toBe(1);
    const logs = readDatabase(dataDir, (db) =>
      db.prepare(`SELECT execution_status FROM transactions WHERE action_type = 'SEND_ASN'`).all(),
    );
    expect(logs).toEqual([{ execution_status: 'SUCCESS' }]);
    await service.stop();
  }, 90_000);
});
