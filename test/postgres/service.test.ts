import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/http/server';
import { parseServiceFlags } from '../../src/server/http/config';
import { cloneTemplate, type ClonedDatabase } from '../helpers/postgres/databases';

/** The service started as `npm run serve -- --database-url …` starts it, on a cloned database. */
const postgres = inject('postgres');

describe.skipIf(!postgres)('the service with --database-url', () => {
  let cloned: ClonedDatabase;
  let dataDir: string;
  let service: RunningService | undefined;
  beforeAll(async () => {
    cloned = await cloneTemplate(postgres!);
    dataDir = mkdtempSync(join(tmpdir(), 'pg-service-'));
  });
  afterAll(async () => {
    await service?.close();
    await cloned?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const optionsFor = (argv: string[]) => ({
    ...parseServiceFlags(
      ['--port', '0', '--data-dir', dataDir, '--database-url', cloned.url, ...argv],
      {},
      { dataDir },
    ),
    outboxDrain: false as const,
  });

  it('refuses sync settings saved in the data dir at start: they make a workstation', async () => {
    const saved = join(dataDir, 'sync-settings.json');
    writeFileSync(saved, '{}');
    try {
      await expect(startService(optionsFor([]))).rejects.toThrow(
        `The sync settings saved in ${saved} make this a workstation. A workstation keeps its data in SQLite`,
      );
    } finally {
      rmSync(saved);
    }
  });

  it('starts on PostgreSQL with the demo seed, answers health and signs the demo user in', async () => {
    service = await startService(optionsFor(['--seed', 'demo', '--pool-size', '3']));
    const health = await fetch(`${service.url}/api/health`);
    expect(health.status).toBe(200);
    const token = await fetch(`${service.url}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
    });
    expect(token.status).toBe(200);
    const { data } = (await token.json()) as { data: { access_token: string } };
    const facilities = await fetch(`${service.url}/api/user-facilities/v1/facilities`, {
      headers: { authorization: `Bearer ${data.access_token}` },
    });
    expect(facilities.status).toBe(200);
    const body = (await facilities.json()) as { data: unknown[] };
    expect(body.data.length).toBeGreaterThan(0);
  });
});
