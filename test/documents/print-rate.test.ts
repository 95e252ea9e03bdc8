/**
 * The label print rate (30 a minute per user), counted in the database: exact under parallel
 * prints on both engines, shared by two central processes on one PostgreSQL database, sliding
 * with the service clock, and per user. The printer is a loopback listener (./printer-loopback).
 */
import { connect } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ServiceContext } from '../../src/server/core/context';
import { admitPrint } from '../../src/server/documents/print-rate';
import { REPLICATED_TABLES } from '../../src/server/sync/synced-tables';
import { manualClock } from '../helpers/clock';
import { describeEngines } from '../helpers/engines';
import { installAdmin } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { documentsBundle, orderId } from './fixtures';
import { startLoopbackPrinter, type LoopbackPrinter } from './printer-loopback';

const LIMITED = /^Too many prints: at most 30 a minute; try again in (\d+) s$/;
/** The printer as an admin sets it: a LAN address (TEST-NET-1) on the raw port. */
const PRINTER = { host: '192.0.2.10', port: 9100 };

function seed() {
  const bundle = documentsBundle();
  bundle.users.push(installAdmin(bundle));
  return bundle;
}

/** The test seam: connections to the printer's (checked) address go to the loopback listener. */
function leadTo(ctx: ServiceContext, port: number) {
  ctx.labelPrinterNetwork = {
    lookup: () => Promise.resolve([{ address: PRINTER.host }]),
    connect: () => connect({ port, host: '127.0.0.1' }),
  };
}

async function setPrinter(svc: TestService) {
  const answer = await svc.app.inject({
    method: 'PUT',
    url: '/api/v1/settings/label-printer',
    headers: { authorization: await svc.login('install@a.test') },
    payload: PRINTER,
  });
  expect(answer.statusCode, answer.body).toBe(200);
}

const print = (svc: TestService, token: string) =>
  svc.app.inject({
    method: 'POST',
    url: `/api/v1/orders/${orderId(1)}/labels/print`,
    headers: { authorization: token },
    payload: { kind: 'placard' },
  });

const codes = (answers: LightMyRequestResponse[]) => answers.map((r) => r.statusCode);
const count = (answers: LightMyRequestResponse[], code: number) =>
  codes(answers).filter((c) => c === code).length;

/** Every refusal is the rate's 429 with its message and `retry_after_seconds`. */
function expectLimited(answers: LightMyRequestResponse[]) {
  for (const answer of answers.filter((r) => r.statusCode !== 200)) {
    expect(answer.statusCode, answer.body).toBe(429);
    const body = answer.json();
    expect(body.message).toMatch(LIMITED);
    const seconds = Number(LIMITED.exec(body.message)![1]);
    expect(body.error.details).toEqual({ retry_after_seconds: seconds });
  }
}

const rowsOf = (svc: TestService, userId: string) =>
  svc.ctx.db
    .selectFrom('print_admissions')
    .select('admitted_at')
    .where('user_id', '=', userId)
    .execute();

describeEngines('the print rate', (engine) => {
  /** Time moves only when a test moves it, so the waits the service names are exact. */
  const { clock, advance } = manualClock(new Date().toISOString());
  let svc: TestService;
  let printer: LoopbackPrinter;
  const tokens: Record<string, string> = {};
  let adminId: string;
  beforeAll(async () => {
    svc = await createTestService({ engine, seed: seed(), clock });
    printer = await startLoopbackPrinter();
    leadTo(svc.ctx, printer.port);
    await setPrinter(svc);
    for (const email of ['admin@a.test', 'viewer@a.test']) tokens[email] = await svc.login(email);
    const admin = await svc.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@a.test')
      .executeTakeFirstOrThrow();
    adminId = admin.id;
  });
  afterAll(async () => {
    await printer?.close();
    await svc?.close();
  });
  afterEach(() => {
    advance(61_000); // past the minute
  });

  it('60 parallel prints by one user: exactly 30 admitted, 30 refused with 429; another user is not affected', async () => {
    const before = printer.jobs.length;
    const answers = await Promise.all(
      Array.from({ length: 60 }, () => print(svc, tokens['admin@a.test']!)),
    );
    expect(count(answers, 200)).toBe(30);
    expect(count(answers, 429)).toBe(30);
    expectLimited(answers);
    expect(await printer.waitForJobs(before + 30)).toHaveLength(before + 30);
    expect(await rowsOf(svc, adminId)).toHaveLength(30);
    // The limit is per user.
    expect((await print(svc, tokens['viewer@a.test']!)).statusCode).toBe(200);
  });

  it('the window slides with the clock: a print leaves the count a minute after it', async () => {
    const admin = tokens['admin@a.test']!;
    const first = await Promise.all(Array.from({ length: 10 }, () => print(svc, admin)));
    expect(codes(first)).toEqual(Array(10).fill(200));
    advance(30_000);
    const second = await Promise.all(Array.from({ length: 25 }, () => print(svc, admin)));
    expect(count(second, 200)).toBe(20);
    expectLimited(second);
    // The oldest prints leave the window in 30 s.
    const refused = second.find((r) => r.statusCode === 429)!.json();
    expect(refused.error.details.retry_after_seconds).toBe(30);
    // 31 s later the first 10 have left the minute (and their rows are deleted); the other 20 not.
    advance(31_000);
    const third = await Promise.all(Array.from({ length: 15 }, () => print(svc, admin)));
    expect(count(third, 200)).toBe(10);
    expectLimited(third);
    expect(await rowsOf(svc, adminId)).toHaveLength(30);
    // 61 s on, the user prints again, and only that print's row is left.
    advance(61_000);
    expect((await print(svc, admin)).statusCode).toBe(200);
    expect(await rowsOf(svc, adminId)).toHaveLength(1);
  });

  it('a new service context on the same database (a restart, another process) sees the count', async () => {
    const admin = tokens['admin@a.test']!;
    const answers = await Promise.all(Array.from({ length: 30 }, () => print(svc, admin)));
    expect(codes(answers)).toEqual(Array(30).fill(200));
    const user = { id: adminId, email: 'admin@a.test', brandId: null };
    await expect(admitPrint({ ...svc.ctx }, user)).rejects.toMatchObject({
      kind: 'rate_limited',
      message: 'Too many prints: at most 30 a minute; try again in 60 s',
      extra: { details: { retry_after_seconds: 60 } },
    });
    expect(await rowsOf(svc, adminId)).toHaveLength(30);
  });
});

it('the count is local: sync never replicates print_admissions', () => {
  expect(REPLICATED_TABLES.map((t) => t.name)).not.toContain('print_admissions');
});

describe.skipIf(!inject('postgres'))('the print rate across two central processes', () => {
  const { clock, advance } = manualClock(new Date().toISOString());
  let a: TestService;
  let b: TestService;
  let printer: LoopbackPrinter;
  beforeAll(async () => {
    a = await createTestService({ engine: 'postgres', seed: seed(), clock });
    b = await createTestService({ postgresUrl: a.postgresUrl, clock });
    printer = await startLoopbackPrinter();
    leadTo(a.ctx, printer.port);
    leadTo(b.ctx, printer.port);
    await setPrinter(a);
  });
  afterAll(async () => {
    await printer?.close();
    await b?.close();
    await a?.close();
  });

  it('20 + 20 parallel prints by one user through both: exactly 30 admitted', async () => {
    const token = await a.login('admin@a.test');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => print(i % 2 ? a : b, token)),
    );
    expect(count(answers, 200)).toBe(30);
    expect(count(answers, 429)).toBe(10);
    expectLimited(answers);
    expect(await printer.waitForJobs(30)).toHaveLength(30);
    // Each process refuses the next one within the minute; a minute later both admit again.
    for (const svc of [a, b]) expect((await print(svc, token)).statusCode).toBe(429);
    advance(61_000);
    for (const svc of [a, b]) expect((await print(svc, token)).statusCode).toBe(200);
  });
});
