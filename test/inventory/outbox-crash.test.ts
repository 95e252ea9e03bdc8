/**
 * Crash safety with a real process: the snapshot and the outbox row (with the full 846) are
 * committed before the network call, so `kill -9` mid-send loses nothing; after a restart the
 * background drainer sends the PENDING delivery by itself with the identical document (same ISA13).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseBundle, id } from '../helpers/fixtures';
import { hang, respond, startReceiver, type Receiver } from '../helpers/receivers';
import { TEST_PASSWORD } from '../helpers/service';
import { facilityUrl, isa13Of, sleep, strictParse, tmpDir } from './support';

const CWD = new URL('../..', import.meta.url).pathname;

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts `node --import tsx src/server/http/cli.ts ...` and waits for `listening on URL`. */
function startService(args: string[]): Promise<Running> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/server/http/cli.ts', '--port', '0', ...args],
    { cwd: CWD, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test' } },
  );
  let out = '';
  const output = () => out;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start:\n${out}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output });
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

let receiver: Receiver;
let data: ReturnType<typeof tmpDir>;
const started: Running[] = [];

beforeAll(async () => {
  receiver = await startReceiver(hang, 'partner-846');
  data = tmpDir('crash');
});

afterAll(async () => {
  await Promise.all(started.map(killHard));
  await receiver?.close();
  data?.remove();
});

describe('outbox survives kill -9', () => {
  it('keeps the snapshot and the PENDING 846, and the restarted service sends the same bytes by itself', async () => {
    const bundle = baseBundle();
    // One user and one EDI connection: less to hash and import at start.
    bundle.users = bundle.users.filter((user) => user.email === 'admin@a.test');
    bundle.connections = [
      { ...bundle.connections[0]!, transport: { type: 'http', url: receiver.url } as never },
    ];
    const seedPath = join(data.path, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(bundle));
    const dataDir = join(data.path, 'data');

    // 1. A service whose partner never answers: kill it while the 846 is on the wire.
    const first = await startService(['--seed', seedPath, '--data-dir', dataDir]);
    started.push(first);
    const bearer = await signIn(first.url);
    const items = [
      { sku: 'K-1', available_quantity: 11 },
      { sku: 'K-2', available_quantity: 0 },
      { sku: 'K-3', available_quantity: '4' },
    ];
    const inFlight = fetch(`${first.url}${facilityUrl(id('b', 1), id('f', 1))}`, {
      method: 'POST',
      headers: { authorization: bearer, 'content-type': 'application/json' },
      body: JSON.stringify({ items }),
    }).catch((error: unknown) => error);
    const [sent] = await receiver.waitFor(1, 15_000);
    await killHard(first);
    const outcome = await inFlight;
    expect(outcome).toBeInstanceOf(Error); // the client never got an answer

    const document = sent!.body;
    strictParse(document);
    expect(isa13Of(document)).toBe('000000001');

    // 2. What the dead process left in app.sqlite.
    const sqlite = new SQLite(join(dataDir, 'app.sqlite'));
    let deliveryId: string;
    try {
      const snapshots = sqlite.prepare('SELECT * FROM advice_snapshots').all() as {
        id: string;
        brand_id: string;
        facility_id: string;
        item_count: number;
        items_json: string;
      }[];
      expect(snapshots).toHaveLength(1);
      expect(snapshots[0]).toMatchObject({
        brand_id: id('b', 1),
        facility_id: id('f', 1),
        item_count: 3,
      });
      expect(JSON.parse(snapshots[0]!.items_json)).toMatchObject([
        { sku: 'K-1', available_quantity: 11 },
        { sku: 'K-2', available_quantity: 0 },
        { sku: 'K-3', available_quantity: 4 },
      ]);
      const deliveries = sqlite
        .prepare(
          `SELECT d.*, x.body AS document FROM advice_deliveries d
             LEFT JOIN advice_documents x ON x.delivery_id = d.id`,
        )
        .all() as {
        id: string;
        snapshot_id: string;
        connection_id: string;
        status: string;
        document: string;
        content_type: string;
        interchange_control_number: number;
      }[];
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({
        snapshot_id: snapshots[0]!.id,
        connection_id: id('c', 1),
        status: 'PENDING',
        content_type: 'application/edi-x12',
        interchange_control_number: 1,
      });
      expect(deliveries[0]!.document).toBe(document);
      deliveryId = deliveries[0]!.id;
      const counter = sqlite
        .prepare('SELECT interchange_counter FROM connections WHERE id = ?')
        .get(id('c', 1)) as { interchange_counter: number };
      expect(counter.interchange_counter).toBe(1);
    } finally {
      sqlite.close();
    }

    // 3. Restart on the same data dir; the partner answers now. Nobody asks for a retry.
    receiver.handle(respond(200, 'accepted'));
    const second = await startService(['--data-dir', dataDir]);
    started.push(second);
    // The restart says what the crash left in the outbox, and that it goes out by itself.
    expect(second.output()).toContain(
      '1 inventory delivery from an earlier run did not finish; it is sent again automatically',
    );
    await receiver.waitFor(2, 15_000);
    const bearer2 = await signIn(second.url);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.body).toBe(document);
    expect(isa13Of(receiver.received[1]!.body)).toBe('000000001');
    expect(receiver.received[1]!.headers['content-type']).toBe('application/edi-x12');
    expect(receiver.received[1]!.headers['idempotency-key']).toBe(
      receiver.received[0]!.headers['idempotency-key'],
    );

    // The history shows it delivered once the outcome is recorded.
    interface HistoryDelivery {
      delivery_id: string;
      status: string;
      next_attempt_at: string | null;
      given_up: boolean;
    }
    let delivery: HistoryDelivery | undefined;
    for (let i = 0; i < 500 && delivery?.status !== 'SUCCESS'; i++) {
      if (i > 0) await sleep(20);
      const history = await fetch(`${second.url}/api/v1/inventory/snapshots`, {
        headers: { authorization: bearer2 },
      });
      const page = (await history.json()) as {
        data: { items: { deliveries: HistoryDelivery[] }[] };
      };
      delivery = page.data.items[0]!.deliveries.find((d) => d.delivery_id === deliveryId);
    }
    expect(delivery).toMatchObject({ status: 'SUCCESS', next_attempt_at: null, given_up: false });

    const stored = await fetch(`${second.url}/api/v1/inventory/deliveries/${deliveryId}/document`, {
      headers: { authorization: bearer2 },
    });
    expect(stored.status).toBe(200);
    expect(stored.headers.get('content-type')).toMatch(/^application\/edi-x12/);
    expect(await stored.text()).toBe(document);

    // The outbox row is now SUCCESS and a second retry is refused.
    const again = await fetch(`${second.url}/api/v1/inventory/deliveries/${deliveryId}/retry`, {
      method: 'POST',
      headers: { authorization: bearer2 },
    });
    expect(again.status).toBe(400);
    await sleep(0);
    await killHard(second);
    const check = new SQLite(join(dataDir, 'app.sqlite'));
    try {
      const row = check
        .prepare('SELECT status FROM advice_deliveries WHERE id = ?')
        .get(deliveryId);
      expect(row).toEqual({ status: 'SUCCESS' });
    } finally {
      check.close();
    }
    // Two real service processes start here; a loaded machine may need more than the default.
  }, 60_000);
});
