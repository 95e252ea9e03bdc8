/**
 * The SFTP inbound directory's password or key in `connections.order_documents_json` is a secret
 * like the transport's: sealed at rest with the keychain key (seed, rows from before, pulled
 * rows), opened only by the poller, and never in an API answer or a pull for a device that does
 * not poll the directory.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openOrderDocumentsJson,
  orderDocumentsWithoutCredentials,
  sealOrderDocumentsJson,
} from '../../src/server/core/sealed-order-documents';
import { SecretLockedError, useSecretsKey } from '../../src/server/core/secret-box';
import { openDatabase } from '../../src/server/db/database';
import { orderDocumentSettingsOf } from '../../src/server/edi/settings';
import { sealStoredConnections } from '../../src/server/inventory';
import type { ChangeCapture } from '../../src/server/sync/capture';
import { connectionRowForDevice } from '../../src/server/sync/connection-credentials';
import { applyPullPage } from '../../src/server/sync/local-apply';
import { id } from '../helpers/fixtures';
import { createTestService } from '../helpers/service';
import { inboundBundle } from './inbound-support';

const PASSWORD = 'inbound-sftp-password';
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----';
const settings = (credential: Record<string, string>) => ({
  send: ['856'],
  auto_acknowledge: false,
  auto_invoice: false,
  ack_hours: 24,
  inbound: {
    type: 'sftp',
    host: 'sftp.retailer.example',
    port: 22,
    username: 'acme',
    directory: '/outbox',
    host_key_sha256: `SHA256:${'A'.repeat(43)}`,
    ...credential,
  },
});
const WITH_PASSWORD = JSON.stringify(settings({ password: PASSWORD }));
const WITH_KEY = JSON.stringify(settings({ privateKey: KEY }));

afterEach(() => useSecretsKey(null));

describe('order_documents credentials at rest', () => {
  it('headless: left as given; with a key: sealed, readable settings, opened again', () => {
    expect(sealOrderDocumentsJson(WITH_PASSWORD)).toBe(WITH_PASSWORD);
    useSecretsKey(randomBytes(32));
    for (const [json, secret] of [
      [WITH_PASSWORD, PASSWORD],
      [WITH_KEY, 'OPENSSH'],
    ] as const) {
      const sealed = sealOrderDocumentsJson(json)!;
      expect(sealed).not.toContain(secret);
      expect(sealOrderDocumentsJson(sealed)).toBe(sealed); // twice changes nothing
      expect(orderDocumentSettingsOf(sealed)?.inbound?.type).toBe('sftp'); // the rest reads
      expect(openOrderDocumentsJson(sealed)).toBe(json);
    }
    const folder = JSON.stringify({ send: [], inbound: { type: 'file', directory: 'in' } });
    expect(sealOrderDocumentsJson(folder)).toBe(folder);
    expect(sealOrderDocumentsJson(null)).toBeNull();
    const sealed = sealOrderDocumentsJson(WITH_PASSWORD)!;
    useSecretsKey(randomBytes(32));
    expect(() => openOrderDocumentsJson(sealed)).toThrow(SecretLockedError);
  });

  it('a desktop seals rows stored before it had a key, at start', async () => {
    const svc = await createTestService({ seed: bundleWith(JSON.parse(WITH_PASSWORD)) });
    try {
      const stored = () =>
        svc.ctx.db
          .selectFrom('connections')
          .select('order_documents_json')
          .where('id', '=', id('c', 1))
          .executeTakeFirstOrThrow();
      expect((await stored()).order_documents_json).toContain(PASSWORD); // headless seed
      useSecretsKey(randomBytes(32));
      await sealStoredConnections(svc.ctx.db);
      const sealed = (await stored()).order_documents_json!;
      expect(sealed).not.toContain(PASSWORD);
      expect(JSON.parse(openOrderDocumentsJson(sealed)!)).toEqual(JSON.parse(WITH_PASSWORD));
    } finally {
      await svc.close();
    }
  });

  it('no API answer carries them: the connections list, and a device’s pull unless it polls', async () => {
    useSecretsKey(randomBytes(32));
    const svc = await createTestService({ seed: bundleWith(JSON.parse(WITH_PASSWORD)) });
    try {
      const token = await svc.login('admin@a.test');
      const list = await svc.app.inject({
        method: 'GET',
        url: `/api/v1/inventory/connections?brand_id=${id('b', 1)}&facility_id=${id('f', 1)}`,
        headers: { authorization: token },
      });
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(PASSWORD);
      expect(list.body).not.toContain('sealed:');
    } finally {
      await svc.close();
    }
    const row = {
      id: 'c',
      sender: 'workstation',
      transport_json: JSON.stringify({ type: 'file', directory: 'out' }),
      order_documents_json: sealOrderDocumentsJson(WITH_PASSWORD),
    };
    expect(connectionRowForDevice(row).order_documents_json).toBe(WITH_PASSWORD);
    const central = connectionRowForDevice({ ...row, sender: 'central' });
    expect(central.order_documents_json).not.toContain(PASSWORD);
    expect(central.order_documents_json).not.toContain('sealed:');
    expect(JSON.parse(central.order_documents_json as string).inbound.host).toBe(
      'sftp.retailer.example',
    );
    expect(orderDocumentsWithoutCredentials(WITH_KEY)).not.toContain('OPENSSH');
    // A central that cannot open it (another keychain) sends the row without it.
    useSecretsKey(randomBytes(32));
    expect(connectionRowForDevice(row).order_documents_json).not.toContain('sealed:');
  });

  it('a workstation seals them in a pulled connection row', async () => {
    const database = await openDatabase(':memory:');
    try {
      useSecretsKey(randomBytes(32));
      const capture = { foldLeftovers() {}, paused: <T>(fn: () => T) => fn() };
      const row = {
        id: 'c0000000-0000-4000-8000-000000000001',
        organization_id: 'a0000000-0000-4000-8000-000000000001',
        brand_id: 'b0000000-0000-4000-8000-000000000001',
        retailer_id: 'e0000000-0000-4000-8000-000000000001',
        kind: 'EDI_846',
        enabled: 1,
        transport_json: JSON.stringify({ type: 'file', directory: 'out' }),
        edi_json: null,
        sender: 'workstation',
        order_documents_json: WITH_PASSWORD,
      };
      applyPullPage(
        database.sqlite,
        capture as unknown as ChangeCapture,
        'd0000000-0000-4000-8000-000000000001',
        {
          epoch: 'e',
          reset: false,
          cursor: 'c',
          more: false,
          last_seq: 0,
          changes: [{ t: 'connections', k: [row.id], v: 1, row }],
          evictions: [],
        },
        new Date().toISOString(),
      );
      const stored = database.sqlite
        .prepare(`SELECT order_documents_json FROM connections WHERE id = ?`)
        .get(row.id) as { order_documents_json: string };
      expect(stored.order_documents_json).not.toContain(PASSWORD);
      expect(openOrderDocumentsJson(stored.order_documents_json)).toBe(WITH_PASSWORD);
    } finally {
      await database.close();
    }
  });
});

const bundleWith = (orderDocuments: unknown) =>
  inboundBundle('http://127.0.0.1:9/unused', orderDocuments);
