import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEngines } from '../helpers/engines';
import { sealTransportJson, useSecretsKey } from '../../src/server/core/secret-box';
import { openEngineCentral, type EngineCentral } from './helpers/pull-central-engines';
import { pulledRows } from './helpers/pull-fixture';
import { HTTP_WITH_SECRETS, SFTP_WITH_SECRETS } from './helpers/secret-transports';

/**
 * What a pull sends a device (issue 18 item 4 and 11): only rows of its facilities, rows without a
 * facility only where they concern it, and connection credentials only where it sends.
 * Two organisations: Reno (org A) and Savannah (org B). Brand "both" works at both, brand "reno"
 * only at Reno, brand "savannah" only at Savannah.
 */
const ORG_A = 'a0000000-0000-4000-8000-00000000000a';
const ORG_B = 'a0000000-0000-4000-8000-00000000000b';
const RENO = 'f0000000-0000-4000-8000-000000000001';
const SAVANNAH = 'f0000000-0000-4000-8000-000000000003';
const BOTH = 'b0000000-0000-4000-8000-000000000001';
const RENO_BRAND = 'b0000000-0000-4000-8000-000000000002';
const SAVANNAH_BRAND = 'b0000000-0000-4000-8000-000000000003';
const RETAILER = 'e0000000-0000-4000-8000-000000000001';
const RENO_DEVICE = { id: 'd0000000-0000-4000-8000-000000000001', facilityIds: [RENO] };
const SAVANNAH_DEVICE = { id: 'd0000000-0000-4000-8000-000000000003', facilityIds: [SAVANNAH] };

let central: EngineCentral;

describeEngines('pull scope', (engine) => {
  beforeEach(async () => {
    central = await openEngineCentral(engine);
    await central.insert('organizations', { id: ORG_A });
    await central.insert('organizations', { id: ORG_B });
    await central.insert('facilities', { id: RENO, organization_id: ORG_A });
    await central.insert('facilities', { id: SAVANNAH, organization_id: ORG_B });
    for (const id of [BOTH, RENO_BRAND, SAVANNAH_BRAND]) await central.insert('brands', { id });
    await central.insert('retailers', { id: RETAILER });
    await central.insert('brand_facilities', { brand_id: BOTH, facility_id: RENO });
    await central.insert('brand_facilities', { brand_id: BOTH, facility_id: SAVANNAH });
    await central.insert('brand_facilities', { brand_id: RENO_BRAND, facility_id: RENO });
    await central.insert('brand_facilities', { brand_id: SAVANNAH_BRAND, facility_id: SAVANNAH });
  });
  afterEach(() => central.close());

  const ids = (rows: Record<string, unknown>[], column = 'id') => rows.map((r) => r[column]).sort();

  describe('pull scope: rows without a facility', () => {
    it('brand-wide log rows reach only devices whose facilities the brand works at', async () => {
      const savannahOnly = await central.insert('transactions', { brand_id: SAVANNAH_BRAND });
      const shared = await central.insert('transactions', { brand_id: BOTH });
      const renoOnly = await central.insert('transactions', { brand_id: RENO_BRAND });
      await central.insert('transactions', {}); // neither brand nor facility: an install's own row
      const reno = pulledRows(await central.pullAll(RENO_DEVICE), 'transactions');
      expect(ids(reno, 'transaction_id')).toEqual(
        [shared.transaction_id, renoOnly.transaction_id].sort(),
      );
      const savannah = pulledRows(await central.pullAll(SAVANNAH_DEVICE), 'transactions');
      expect(ids(savannah, 'transaction_id')).toEqual(
        [shared.transaction_id, savannahOnly.transaction_id].sort(),
      );
    });

    it('a brand-wide snapshot and its deliveries reach only devices of the brand, of their organisation', async () => {
      const connectionB = await central.insert('connections', {
        organization_id: ORG_B,
        brand_id: SAVANNAH_BRAND,
        retailer_id: RETAILER,
      });
      const foreign = await central.insert('advice_snapshots', {
        brand_id: SAVANNAH_BRAND,
        facility_id: null,
      });
      const foreignDelivery = await central.insert('advice_deliveries', {
        snapshot_id: foreign.id,
        connection_id: connectionB.id,
        organization_id: ORG_B,
        document: 'SAVANNAH FEED',
      });
      const shared = await central.insert('advice_snapshots', {
        brand_id: BOTH,
        facility_id: null,
      });
      const sharedToA = await central.insert('advice_deliveries', {
        snapshot_id: shared.id,
        organization_id: ORG_A,
      });
      const sharedToB = await central.insert('advice_deliveries', {
        snapshot_id: shared.id,
        organization_id: ORG_B,
      });
      const reno = await central.pullAll(RENO_DEVICE);
      expect(ids(pulledRows(reno, 'advice_snapshots'))).toEqual([shared.id]);
      expect(ids(pulledRows(reno, 'advice_deliveries'))).toEqual([sharedToA.id]);
      const savannah = await central.pullAll(SAVANNAH_DEVICE);
      expect(ids(pulledRows(savannah, 'advice_snapshots'))).toEqual([foreign.id, shared.id].sort());
      expect(ids(pulledRows(savannah, 'advice_deliveries'))).toEqual(
        [foreignDelivery.id, sharedToB.id].sort(),
      );
    });

    it("a brand that starts working at the device's facility brings its brand-wide rows at the next pull", async () => {
      const log = await central.insert('transactions', { brand_id: SAVANNAH_BRAND });
      const snapshot = await central.insert('advice_snapshots', {
        brand_id: SAVANNAH_BRAND,
        facility_id: null,
      });
      await central.insert('billing_prices', {
        brand_id: SAVANNAH_BRAND,
        metric: 'orders',
        price_cents: 5,
        updated_at: '2026-11-25T12:00:00.000Z',
      });
      const first = await central.pullAll(RENO_DEVICE);
      expect(pulledRows(first, 'transactions')).toEqual([]);
      await central.insert('brand_facilities', { brand_id: SAVANNAH_BRAND, facility_id: RENO });
      const next = await central.pullAll(RENO_DEVICE, first.cursor);
      expect(ids(pulledRows(next, 'transactions'), 'transaction_id')).toEqual([log.transaction_id]);
      expect(ids(pulledRows(next, 'advice_snapshots'))).toEqual([snapshot.id]);
      expect(ids(pulledRows(next, 'billing_prices'), 'brand_id')).toEqual([SAVANNAH_BRAND]);
    });

    it('a conflict without a facility goes only to the device that caused it', async () => {
      const renos = await central.insert('sync_conflicts', {
        client_id: RENO_DEVICE.id,
        facility_id: null,
      });
      const other = await central.insert('sync_conflicts', {
        client_id: 'd0000000-0000-4000-8000-000000000002',
        facility_id: null,
      });
      expect(ids(pulledRows(await central.pullAll(RENO_DEVICE), 'sync_conflicts'))).toEqual([
        renos.id,
      ]);
      expect(pulledRows(await central.pullAll(SAVANNAH_DEVICE), 'sync_conflicts')).toEqual([]);
      expect(other.id).not.toBe(renos.id);
    });

    it('retailers reach every device; a table the scope does not name reaches none', async () => {
      expect(ids(pulledRows(await central.pullAll(SAVANNAH_DEVICE), 'retailers'))).toEqual([
        RETAILER,
      ]);
      // A row the scope rules do not know (a table added without a rule) is not sent.
      await central.run(
        `INSERT INTO sync_row_versions (tbl, row_key, version, deleted, facility_id, src_rowid)
         VALUES ('some_new_table', '["x"]', (SELECT max(version) + 1 FROM sync_row_versions), 0, NULL, 1)`,
      );
      const { changes } = await central.pullAll(RENO_DEVICE);
      expect(changes.some((c) => c.t === 'some_new_table')).toBe(false);
    });
  });

  describe('pull scope: connection credentials', () => {
    const secretTransport = SFTP_WITH_SECRETS;
    const httpTransport = HTTP_WITH_SECRETS;
    /** A connection of org A to the retailer; without `sender`, the column's default. */
    const connection = (brand: string, transport: object, sender?: 'central' | 'workstation') =>
      central.insert('connections', {
        organization_id: ORG_A,
        brand_id: brand,
        retailer_id: RETAILER,
        transport_json: JSON.stringify(transport),
        ...(sender ? { sender } : {}),
      });

    /** The SFTP transport as a device that does not send over it receives it. */
    const STRIPPED_SFTP = {
      type: 'sftp',
      host: 'sftp.partner.example',
      port: 22,
      username: 'reno',
      directory: 'in',
      host_key_sha256: SFTP_WITH_SECRETS.host_key_sha256,
    };

    it('a device gets credentials only of connections it sends over itself', async () => {
      const byCentral = await connection(BOTH, secretTransport, 'central');
      const byHttp = await connection(BOTH, httpTransport);
      const byWorkstation = await connection(RENO_BRAND, secretTransport, 'workstation');
      const rows = new Map(
        pulledRows(await central.pullAll(RENO_DEVICE), 'connections').map((r) => [r.id, r]),
      );
      expect(JSON.parse(rows.get(byCentral.id)!.transport_json as string)).toEqual(STRIPPED_SFTP);
      expect(JSON.parse(rows.get(byHttp.id)!.transport_json as string)).toEqual({
        type: 'http',
        url: 'https://api.partner.example/feed',
      });
      expect(JSON.parse(rows.get(byWorkstation.id)!.transport_json as string)).toEqual(
        secretTransport,
      );
      // Nothing secret anywhere in what the device received of the central's connections.
      const sent = JSON.stringify([rows.get(byCentral.id), rows.get(byHttp.id)]);
      for (const secret of ['sftp-password', 'OPENSSH', 'Bearer', 'api_key', ':pw@']) {
        expect(sent).not.toContain(secret);
      }
    });

    it('a device that stops being the sender loses the credentials at its next pull', async () => {
      const byWorkstation = await connection(RENO_BRAND, secretTransport, 'workstation');
      const first = await central.pullAll(RENO_DEVICE);
      expect(pulledRows(first, 'connections')[0]!.transport_json).toContain('sftp-password');
      await central.run(`UPDATE connections SET sender = 'central' WHERE id = ?`, byWorkstation.id);
      const next = await central.pullAll(RENO_DEVICE, first.cursor);
      const rows = pulledRows(next, 'connections');
      expect(rows.map((r) => r.id)).toEqual([byWorkstation.id]);
      expect(rows[0]!.sender).toBe('central');
      expect(rows[0]!.transport_json).not.toContain('sftp-password');
      expect(rows[0]!.transport_json).not.toContain('OPENSSH');
    });

    it('a connection whose secrets this central cannot open comes without credentials; the pull still answers', async () => {
      // Sealed under a key this process no longer has (another keychain's, or headless now).
      useSecretsKey(randomBytes(32));
      const sealed = (transport: object) => sealTransportJson(JSON.stringify(transport));
      const sftp = await connection(RENO_BRAND, {}, 'workstation');
      const http = await connection(BOTH, {}, 'central');
      await central.run(
        `UPDATE connections SET transport_json = ? WHERE id = ?`,
        sealed(secretTransport),
        sftp.id,
      );
      await central.run(
        `UPDATE connections SET transport_json = ? WHERE id = ?`,
        sealed(httpTransport),
        http.id,
      );
      useSecretsKey(null);
      try {
        const rows = new Map(
          pulledRows(await central.pullAll(RENO_DEVICE), 'connections').map((r) => [r.id, r]),
        );
        expect(JSON.parse(rows.get(sftp.id)!.transport_json as string)).toEqual(STRIPPED_SFTP);
        // The URL itself was sealed (it carried a password): dropped, not sent sealed.
        expect(JSON.parse(rows.get(http.id)!.transport_json as string)).toEqual({ type: 'http' });
      } finally {
        useSecretsKey(null);
      }
    });
  });
});
