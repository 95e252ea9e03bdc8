/**
 * The lifecycle the inbound and reply tests share: a retailer that answers ok for the whole
 * suite, and the service (and SFTP server) a test starts, closed after each test once its
 * sends are over.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Engine } from '../../src/server/db/engine';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import type { RunningSftpServer } from '../helpers/sftp-server';
import { polledInboundBundle } from './inbound-support';
import { until } from './support';

export interface PartnerSuite {
  /** Started before the suite's first test. */
  partner: Receiver;
  /** A test's service and SFTP server: set them, the suite closes them after the test. */
  svc: TestService | undefined;
  sftp: RunningSftpServer | undefined;
}

export function partnerSuite(partnerName = 'retailer-one', sends = 'the 997 sends'): PartnerSuite {
  const suite: PartnerSuite = { partner: undefined!, svc: undefined, sftp: undefined };
  beforeAll(async () => {
    suite.partner = await startReceiver(ok, partnerName);
  });
  afterAll(async () => {
    await suite.partner?.close();
  });
  afterEach(async () => {
    const svc = suite.svc;
    if (svc) await until(() => svc.ctx.deliveriesInFlight.size === 0, sends);
    await svc?.close();
    suite.svc = undefined;
    await suite.sftp?.close();
    suite.sftp = undefined;
  });
  return suite;
}

/** A service whose connection 1 polls the folder inbound/r1 of `dataDir` (made here). */
export async function polledFolderService(options: {
  engine?: Engine;
  dataDir: string;
  partnerUrl: string;
}) {
  const svc = await createTestService({
    engine: options.engine,
    dataDir: options.dataDir,
    seed: polledInboundBundle(options.partnerUrl, { type: 'file', directory: 'inbound/r1' }),
  });
  const folder = join(options.dataDir, 'inbound/r1');
  mkdirSync(folder, { recursive: true });
  return { svc, folder };
}

/** Connection settings that poll /outbox on the SFTP server at 127.0.0.1:`port`. */
export const sftpInbound = (
  port: number,
  hostKey: string,
  login: { username: string; password: string },
  extra: Record<string, unknown> = {},
) => ({
  type: 'sftp',
  host: '127.0.0.1',
  port,
  username: login.username,
  password: login.password,
  directory: '/outbox',
  host_key_sha256: hostKey,
  ...extra,
});
