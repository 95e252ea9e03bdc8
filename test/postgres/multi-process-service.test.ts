/**
 * Two central processes started as `npm run serve -- --database-url …` starts them, on one
 * PostgreSQL database with a data dir each: a token one issues is accepted by the other, since
 * both sign with the database's secret, not a file in their own data dir.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/http/server';
import { parseServiceFlags } from '../../src/server/http/config';
import { cloneTemplate, type ClonedDatabase } from '../helpers/postgres/databases';

const postgres = inject('postgres');

describe.skipIf(!postgres)('two services with one --database-url', () => {
  let cloned: ClonedDatabase;
  const dataDirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'pg-two-')));
  const services: RunningService[] = [];
  beforeAll(async () => {
    cloned = await cloneTemplate(postgres!);
    for (const [index, dataDir] of dataDirs.entries()) {
      const seed = index === 0 ? ['--seed', 'demo'] : [];
      const options = parseServiceFlags(
        ['--port', '0', '--data-dir', dataDir, '--database-url', cloned.url, ...seed],
        {},
        { dataDir },
      );
      services.push(await startService({ ...options, outboxDrain: false }));
    }
  });
  afterAll(async () => {
    for (const service of services) await service.close();
    await cloned?.drop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a token issued by one process is accepted by the other', async () => {
    const [a, b] = services;
    const token = await fetch(`${a!.url}/api/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
    });
    expect(token.status).toBe(200);
    const { data } = (await token.json()) as { data: { access_token: string } };
    const facilities = await fetch(`${b!.url}/api/user-facilities/v1/facilities`, {
      headers: { authorization: `Bearer ${data.access_token}` },
    });
    expect(facilities.status).toBe(200);
    expect(a!.context.secret).toEqual(b!.context.secret);
    for (const dir of dataDirs) expect(existsSync(join(dir, 'jwt-secret.key'))).toBe(false);
  });
});
