import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { transportOf } from '../../src/server/inventory/transmission/documents';
import { openDatabase } from '../../src/server/db/database';
import {
  openTransportJson,
  SecretLockedError,
  sealTransportJson,
  seal,
  unseal,
  useSecretsKey,
} from '../../src/server/core/secret-box';
import { startService } from '../../src/server/http/server';
import type { ChangeCapture } from '../../src/server/sync/capture';
import { connectionRowForDevice } from '../../src/server/sync/connection-credentials';
import { applyPullPage } from '../../src/server/sync/local-apply';
import {
  readStoredSyncSettings,
  sealStoredSyncSecret,
  syncSettingsPath,
  writeStoredSyncSettings,
} from '../../src/server/sync/stored-settings';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { HTTP_WITH_SECRETS, SFTP_WITH_SECRETS } from './helpers/secret-transports';

/**
 * Secrets at rest on the desktop (issue 18 item 11): with the keychain's key the device secret and
 * connection credentials are stored sealed; without one (headless) they stay as they were.
 */
const SFTP = SFTP_WITH_SECRETS;
const HTTP = HTTP_WITH_SECRETS;
const SETTINGS = {
  central_url: 'https://central.example',
  device_id: 'd0000000-0000-4000-8000-000000000001',
  device_secret: 'the-device-secret',
};

const dataDir = tempDirsPerTest('secrets-at-rest');
afterEach(() => useSecretsKey(null));

describe('secret box', () => {
  it('headless (no key) leaves values as they are', () => {
    expect(seal('plain')).toBe('plain');
    expect(sealTransportJson(JSON.stringify(SFTP))).toBe(JSON.stringify(SFTP));
  });

  it('seals credentials of a transport and opens them again; another key cannot', () => {
    useSecretsKey(randomBytes(32));
    for (const transport of [SFTP, HTTP]) {
      const sealed = sealTransportJson(JSON.stringify(transport));
      for (const secret of ['sftp-password', 'OPENSSH', 'Bearer', 'api_key', ':pw@']) {
        expect(sealed).not.toContain(secret);
      }
      expect(JSON.parse(openTransportJson(sealed))).toEqual(transport);
      expect(transportOf({ transport_json: sealed })).toEqual(transport);
      expect(sealTransportJson(sealed)).toBe(sealed); // sealing twice changes nothing
    }
    const sealed = seal('x');
    useSecretsKey(randomBytes(32));
    expect(() => unseal(sealed)).toThrow(SecretLockedError);
    useSecretsKey(null);
    expect(() => unseal(sealed)).toThrow(SecretLockedError);
  });
});

describe('device secret in sync-settings.json', () => {
  it('is written sealed with a key and read back plain', () => {
    const dir = dataDir();
    useSecretsKey(randomBytes(32));
    writeStoredSyncSettings(dir, SETTINGS);
    expect(readFileSync(syncSettingsPath(dir), 'utf8')).not.toContain('the-device-secret');
    expect(readStoredSyncSettings(dir)).toEqual(SETTINGS);
    // Another keychain's key: the settings are ignored with a reason, never used half-read.
    useSecretsKey(randomBytes(32));
    const lines: string[] = [];
    expect(readStoredSyncSettings(dir, (line) => lines.push(line))).toBeNull();
    expect(lines.join()).toMatch(/encrypted with another keychain/);
  });

  it('one saved in the clear (headless, or before the upgrade) is sealed at the next start with a key', () => {
    const dir = dataDir();
    writeStoredSyncSettings(dir, SETTINGS);
    expect(readFileSync(syncSettingsPath(dir), 'utf8')).toContain('the-device-secret');
    useSecretsKey(randomBytes(32));
    sealStoredSyncSecret(dir);
    expect(readFileSync(syncSettingsPath(dir), 'utf8')).not.toContain('the-device-secret');
    expect(readStoredSyncSettings(dir)).toEqual(SETTINGS);
  });
});

describe('connection credentials in the database', () => {
  it('a desktop service seals the credentials it stores (seed, and rows from before) and still sends with them', async () => {
    const dir = dataDir();
    const seedFile = join(dataDir(), 'seed.json'); // outside the data dir, as an install's would be
    const ids = (n: number) => `0${n}000000-0000-4000-8000-000000000001`;
    writeFileSync(
      seedFile,
      JSON.stringify({
        organizations: [{ id: ids(1), name: 'Org' }],
        brands: [{ brand_id: ids(2), name: 'Brand' }],
        retailers: [{ retailer_id: ids(3), name: 'Retailer' }],
        connections: [
          {
            id: ids(4),
            organization_id: ids(1),
            brand_id: ids(2),
            retailer_id: ids(3),
            kind: 'DIRECT_API',
            transport: SFTP,
          },
        ],
      }),
    );
    const options = { host: '127.0.0.1', port: 0, dataDir: dir, uiDir: null, outboxDrain: false };
    // Headless first: stored as given.
    const headless = await startService({ ...options, seed: seedFile } as never);
    const plain = await headless.context.db
      .selectFrom('connections')
      .select('transport_json')
      .executeTakeFirstOrThrow();
    await headless.close();
    expect(plain.transport_json).toContain('sftp-password');
    // The desktop with a keychain key: sealed at start (rows from before), and as a seed imports
    // them; opened where they are sent.
    const secretsKey = randomBytes(32);
    for (const seed of [null, seedFile]) {
      const desktop = await startService({ ...options, seed, secretsKey } as never);
      try {
        const row = await desktop.context.db
          .selectFrom('connections')
          .select('transport_json')
          .executeTakeFirstOrThrow();
        expect(row.transport_json).not.toContain('sftp-password');
        expect(row.transport_json).not.toContain('OPENSSH');
        expect(transportOf(row)).toEqual(SFTP);
      } finally {
        await desktop.close();
      }
    }
  });

  it('a central on the desktop sends its sender devices the credentials opened, the others none', () => {
    useSecretsKey(randomBytes(32));
    const row = {
      id: 'c',
      sender: 'workstation',
      transport_json: sealTransportJson(JSON.stringify(SFTP)),
    };
    expect(JSON.parse(connectionRowForDevice(row).transport_json as string)).toEqual(SFTP);
    const central = connectionRowForDevice({ ...row, sender: 'central' });
    expect(central.transport_json).not.toContain('sftp-password');
    expect(central.transport_json).not.toContain('sealed:');
  });

  it('a workstation seals the credentials of a pulled connection it sends over', async () => {
    const database = await openDatabase(':memory:');
    try {
      useSecretsKey(randomBytes(32));
      const capture = { foldLeftovers() {}, paused: <T>(fn: () => T) => fn() };
      const row = {
        id: 'c0000000-0000-4000-8000-000000000001',
        organization_id: 'a0000000-0000-4000-8000-000000000001',
        brand_id: 'b0000000-0000-4000-8000-000000000001',
        retailer_id: 'e0000000-0000-4000-8000-000000000001',
        kind: 'DIRECT_API',
        enabled: 1,
        transport_json: JSON.stringify(SFTP),
        edi_json: null,
        sender: 'workstation',
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
        .prepare(`SELECT transport_json FROM connections WHERE id = ?`)
        .get(row.id) as { transport_json: string };
      expect(stored.transport_json).not.toContain('sftp-password');
      expect(transportOf(stored)).toEqual(SFTP);
    } finally {
      await database.close();
    }
  });
});
