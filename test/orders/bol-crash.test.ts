/**
 * A real crash between storing the BOL file and committing the order: the service process is
 * killed (SIGKILL) while its upload transaction waits for the database's write lock, which this
 * test holds. After a restart the order is as before, no version exists, the stored file is an
 * orphan that nothing references, and the same upload then succeeds and reuses the file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPath, sha256Of } from '../../src/server/core/file-store';
import { baseBundle, id } from '../helpers/fixtures';
import { TEST_PASSWORD } from '../helpers/service';
import { sleep, tmpDir } from '../inventory/support';
import { makePdf } from './bol-support';

const CWD = new URL('../..', import.meta.url).pathname;
const ORDER = id('c', 777);

interface Running {
  child: ChildProcess;
  url: string;
}

/** Starts `node --import tsx src/server/http/cli.ts ...` and waits for `listening on URL`. */
function startService(args: string[]): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/server/http/cli.ts', '--port', '0', ...args],
    { cwd: CWD, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test' } },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start:\n${out}`));
    }, 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${out}`));
    });
  });
}

function killHard(running: Running): Promise<void> {
  return new Promise((resolve) => {
    if (running.child.exitCode !== null || running.child.signalCode !== null) return resolve();
    running.child.once('exit', () => resolve());
    running.child.kill('SIGKILL');
  });
}

async function signIn(base: string): Promise<string> {
  const response = await fetch(`${base}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@a.test', password: TEST_PASSWORD }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { data: { access_token: string } };
  return `Bearer ${body.data.access_token}`;
}

const upload = (base: string, bearer: string, pdf: Buffer) =>
  fetch(`${base}/api/documents/bol/${ORDER}`, {
    method: 'POST',
    headers: { authorization: bearer, 'content-type': 'application/json' },
    body: JSON.stringify({
      file_content: pdf.toString('base64'),
      file_name: 'crash.pdf',
      bill_of_lading_number: 'BOL-CRASH',
    }),
  });

let data: ReturnType<typeof tmpDir>;
const started: Running[] = [];

beforeAll(() => {
  data = tmpDir('bol-crash');
});
afterAll(async () => {
  await Promise.all(started.map(killHard));
  data?.remove();
});

describe('BOL upload survives kill -9 between the file and the commit', () => {
  it('leaves the order untouched and an orphan file that a retry reuses', async () => {
    const bundle = baseBundle();
    // One user: less to hash at start.
    bundle.users = bundle.users.filter((user) => user.email === 'admin@a.test');
    const seedPath = join(data.path, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(bundle));
    const dataDir = join(data.path, 'data');
    const pdf = await makePdf('crash', 1);
    const file = documentPath(dataDir, sha256Of(pdf));

    const first = await startService(['--seed', seedPath, '--data-dir', dataDir]);
    started.push(first);
    const sqlite = new SQLite(join(dataDir, 'app.sqlite'));
    try {
      sqlite.pragma('busy_timeout = 5000');
      const at = new Date().toISOString();
      sqlite
        .prepare(
          `INSERT INTO orders (id, brand_id, retailer_id, facility_id, picksheet_code, status,
             created_at, updated_at) VALUES (?, ?, ?, ?, 'PS-CRASH', 'Open', ?, ?)`,
        )
        .run(ORDER, id('b', 1), id('r', 1), id('f', 1), at, at);
      const before = sqlite.prepare('SELECT * FROM orders WHERE id = ?').get(ORDER);
      const bearer = await signIn(first.url);

      // Hold the write lock: the upload stores its file, then waits at its first write.
      sqlite.exec('BEGIN IMMEDIATE');
      const inFlight = upload(first.url, bearer, pdf).catch((error: unknown) => error);
      for (let i = 0; i < 1000 && !existsSync(file); i++) await sleep(10);
      expect(existsSync(file)).toBe(true);
      await killHard(first);
      expect(await inFlight).toBeInstanceOf(Error); // the client never got an answer
      sqlite.exec('ROLLBACK');

      expect(sqlite.prepare('SELECT * FROM orders WHERE id = ?').get(ORDER)).toEqual(before);
      expect(sqlite.prepare('SELECT COUNT(*) AS n FROM order_bol_versions').get()).toEqual({
        n: 0,
      });
      expect(
        sqlite
          .prepare("SELECT COUNT(*) AS n FROM transactions WHERE action_type = 'UPLOAD_BOL'")
          .get(),
      ).toEqual({ n: 0 });
    } finally {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      sqlite.close();
    }

    // Restart on the same data dir: nothing lists the orphan; the retry succeeds and reuses it.
    const second = await startService(['--data-dir', dataDir]);
    started.push(second);
    const bearer = await signIn(second.url);
    const history = await fetch(`${second.url}/api/v1/orders/${ORDER}/bol`, {
      headers: { authorization: bearer },
    });
    expect(((await history.json()) as { data: unknown[] }).data).toEqual([]);
    const retry = await upload(second.url, bearer, pdf);
    expect(retry.status).toBe(200);
    const after = (await (
      await fetch(`${second.url}/api/v1/orders/${ORDER}/bol`, {
        headers: { authorization: bearer },
      })
    ).json()) as { data: { version: number; sha256: string }[] };
    expect(after.data).toEqual([expect.objectContaining({ version: 1, sha256: sha256Of(pdf) })]);
  }, 90_000);
});
