import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** `npm run migrate-central`: the CLI's refusals, before any database is touched. */
const dir = mkdtempSync(join(tmpdir(), 'migrate-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]) {
  const { DATABASE_URL: _url, ...env } = process.env;
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'src/server/http/migrate-central-cli.ts', ...args],
    { env, encoding: 'utf8', timeout: 30_000 },
  );
  return { status: result.status, stderr: result.stderr };
}

describe('migrate-central CLI', () => {
  it('says what is missing and how to call it (exit 2)', () => {
    const missing = run(['--from', dir]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('--database-url (or DATABASE_URL) is required');
    expect(missing.stderr).toContain('usage: npm run migrate-central');
  });

  it('refuses a URL that is not postgres:// without echoing it', () => {
    const answer = run(['--from', dir, '--database-url', 'mysql://root:hunter2@db/x']);
    expect(answer.status).toBe(2);
    expect(answer.stderr).toContain('--database-url must be a postgres:// URL');
    expect(answer.stderr).not.toContain('hunter2');
  });

  it('refuses a data dir without a database (exit 1), naming it', () => {
    const answer = run(['--from', dir, '--database-url', 'postgres://app@127.0.0.1:1/x']);
    expect(answer.status).toBe(1);
    expect(answer.stderr).toBe(
      `migrate-central: ${dir} holds no app.sqlite: not a service's data dir\n`,
    );
  });
});
