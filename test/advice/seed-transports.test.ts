/**
 * Transport settings the seed import refuses up front, naming the connection: an sftp transport
 * without a usable host key fingerprint, and a file directory that climbs out of the data dir.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import { importSeedBundle, parseSeedBundle, SeedError } from '../../src/server/seed/seed';
import { baseBundle, id } from '../helpers/fixtures';

const FINGERPRINT = 'SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s';

/** The base bundle with connection 3 (index 2) on the given transport. */
function bundleWith(transport: Record<string, unknown>) {
  // No users: hashing their passwords would only slow these tests down.
  const bundle = { ...baseBundle(), users: [] };
  const index = bundle.connections.findIndex((c) => c.id === id('c', 3));
  (bundle.connections[index] as { transport: unknown }).transport = transport;
  return { bundle, index };
}

const sftp = (extra: Record<string, unknown>) => ({
  type: 'sftp',
  host: 'sftp.partner.example',
  username: 'edi',
  password: 'pw',
  directory: '/in',
  ...extra,
});

describe('seed bundle transports', () => {
  let database: OpenedDatabase | null = null;
  afterEach(async () => {
    await database?.close();
    database = null;
  });

  it.each([
    FINGERPRINT,
    FINGERPRINT.replace('SHA256:', ''),
    `${FINGERPRINT.replace('SHA256:', '')}=`,
    'b8d895ced92c0ac0e171cd2ef5ef01ba3417554a4a6480d331ccc2be3ded0f6b',
    'B8:D8:95:CE:D9:2C:0A:C0:E1:71:CD:2E:F5:EF:01:BA:34:17:55:4A:4A:64:80:D3:31:CC:C2:BE:3D:ED:0F:6B',
  ])('an sftp transport with host_key_sha256 %s is accepted and stored', async (fingerprint) => {
    const { bundle } = bundleWith(sftp({ host_key_sha256: fingerprint }));
    database = await openDatabase(':memory:');
    await importSeedBundle(database.db, bundle);
    const row = await database.db
      .selectFrom('connections')
      .select('transport_json')
      .where('id', '=', id('c', 3))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.transport_json)).toMatchObject({ host_key_sha256: fingerprint });
  });

  it('an sftp transport without host_key_sha256 is refused, naming where', () => {
    const { bundle, index } = bundleWith(sftp({}));
    expect(() => parseSeedBundle(bundle)).toThrow(
      new SeedError(
        `Invalid seed bundle at connections[${index}].transport.host_key_sha256: required: the SHA-256 fingerprint of the server host key (SHA256:… from ssh-keygen -lf)`,
      ),
    );
  });

  it.each(['SHA1:abc', 'MD5:aa:bb', 'b8d895ce', `${FINGERPRINT}xx`])(
    'an sftp host_key_sha256 of %s is refused',
    (fingerprint) => {
      const { bundle, index } = bundleWith(sftp({ host_key_sha256: fingerprint }));
      expect(() => parseSeedBundle(bundle)).toThrow(
        `Invalid seed bundle at connections[${index}].transport.host_key_sha256: must be the SHA-256 fingerprint`,
      );
    },
  );

  it.each(['../elsewhere', 'outbox/../../elsewhere', '..'])(
    'a file directory %s that climbs out of the data dir is refused, naming the connection',
    async (directory) => {
      const { bundle, index } = bundleWith({ type: 'file', directory });
      expect(() => parseSeedBundle(bundle)).toThrow(
        new SeedError(
          `Invalid seed bundle at connections[${index}].transport.directory: connection '${id('c', 3)}': ` +
            `file transport directory ${JSON.stringify(directory)} climbs out of the data dir ` +
            "with '..'; use a folder inside the data dir or an absolute path",
        ),
      );
      // All or nothing: not even the organisations were written.
      database = await openDatabase(':memory:');
      await expect(importSeedBundle(database.db, bundle)).rejects.toThrow(SeedError);
      const organisations = await database.db.selectFrom('organizations').select('id').execute();
      expect(organisations).toEqual([]);
    },
  );

  it.each(['outbox/r3', 'outbox/../r3', '/srv/edi/../drop'])(
    'a file directory %s inside the data dir, or absolute, is accepted',
    (directory) => {
      const { bundle } = bundleWith({ type: 'file', directory });
      expect(parseSeedBundle(bundle).connections![2]!.transport).toEqual({
        type: 'file',
        directory,
      });
    },
  );
});
