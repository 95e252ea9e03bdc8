import * as crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import { upgradePasswordHash } from '../../src/server/access/user-queries';
import {
  DEMO_EMAIL,
  DEMO_PASSWORD,
  demoSignInUnchanged,
  importDemoWorkspace,
} from '../../src/server/seed/demo';
import {
  dummyPasswordHash,
  hashPassword,
  PASSWORD_COST,
  verifyPassword,
} from '../../src/server/access/passwords';
import { importSeedBundle } from '../../src/server/seed/seed';
import { baseBundle } from '../helpers/fixtures';
import {
  createTestService,
  TEST_PASSWORD,
  TEST_PASSWORD_COST,
  type TestService,
} from '../helpers/service';
import { expectError } from './envelope';

// Records the cost of every scrypt run. Hashing at N=2^17 takes ~0.3 s, so this file does it
// only a handful of times.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, scrypt: vi.fn(original.scrypt) };
});
const scryptCosts = () =>
  vi.mocked(crypto.scrypt).mock.calls.map((call) => (call[3] as crypto.ScryptOptions).N);
beforeEach(() => {
  vi.mocked(crypto.scrypt).mockClear();
});

const OLD_COST = { N: 16384, r: 8, p: 1 };
const PRODUCTION_PREFIX = /^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/;

describe('password hashes in production', () => {
  it('new hashes use scrypt N=2^17, r=8, p=1, stored with the hash', async () => {
    expect(PASSWORD_COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
    const hash = await hashPassword('a-password');
    expect(hash).toMatch(PRODUCTION_PREFIX);
    expect(scryptCosts()).toEqual([131072]);
    expect(await dummyPasswordHash()).toMatch(PRODUCTION_PREFIX);
    expect(await verifyPassword('a-password', hash)).toBe(true);
  });

  it('a stored hash with a cost beyond the memory limit, or malformed, is refused without running scrypt', async () => {
    const salt = Buffer.alloc(16).toString('base64');
    const key = Buffer.alloc(32).toString('base64');
    for (const stored of [
      `scrypt$${2 ** 24}$8$1$${salt}$${key}`,
      `scrypt$1000$8$1$${salt}$${key}`, // N not a power of two
      `scrypt$16384$8$0$${salt}$${key}`,
      `scrypt$16384$8$1$${salt}$`,
      `bcrypt$16384$8$1$${salt}$${key}`,
      'not-a-hash',
    ]) {
      expect(await verifyPassword('x', stored), stored).toBe(false);
    }
    expect(scryptCosts()).toEqual([]);
  });
});

describe('hashing concurrency', () => {
  it('50 hashes requested at once run at most 2 at a time (scrypt takes 128 MiB and a pool thread each)', async () => {
    const original = vi.mocked(crypto.scrypt).getMockImplementation()!;
    let running = 0;
    let most = 0;
    vi.mocked(crypto.scrypt).mockImplementation(((...args: unknown[]) => {
      const done = args.pop() as (err: Error | null, key: Buffer) => void;
      running++;
      most = Math.max(most, running);
      return (original as (...a: unknown[]) => void)(...args, (err: Error | null, key: Buffer) => {
        running--;
        done(err, key);
      });
    }) as typeof crypto.scrypt);
    try {
      const hashes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => hashPassword(`password-${i}`, TEST_PASSWORD_COST)),
      );
      expect(new Set(hashes).size).toBe(50);
      expect(most).toBe(2);
      expect(running).toBe(0);
    } finally {
      vi.mocked(crypto.scrypt).mockImplementation(original);
    }
  });
});

describe('sign-in with the production cost', () => {
  let svc: TestService;
  const email = 'viewer@a.test';
  const storedHash = async () =>
    (
      await svc.ctx.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).password_hash;

  beforeAll(async () => {
    // Seeded cheaply; then the context gets the production cost and the user an old N=16384 hash.
    svc = await createTestService({ seed: baseBundle() });
    svc.ctx.passwordCost = PASSWORD_COST;
    await svc.ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(TEST_PASSWORD, OLD_COST) })
      .where('email', '=', email)
      .execute();
  });
  afterAll(async () => {
    await svc?.close();
  });
  const signIn = (password: string, who = email) =>
    svc.app.inject({ method: 'POST', url: '/api/auth/token', payload: { email: who, password } });

  it('a wrong password against an old hash is refused, costs what an unknown email costs, and keeps the hash', async () => {
    const before = await storedHash();
    await dummyPasswordHash(); // made once per process; not part of what is measured below
    vi.mocked(crypto.scrypt).mockClear();
    expectError(await signIn('wrong-password'), 401, 'INVALID_CREDENTIALS');
    // The old hash's own check, then one at the current cost, as an unknown email gets.
    expect(scryptCosts()).toEqual([16384, 131072]);
    expect(await storedHash()).toBe(before);

    vi.mocked(crypto.scrypt).mockClear();
    expectError(await signIn(TEST_PASSWORD, 'nobody@a.test'), 401, 'INVALID_CREDENTIALS');
    expect(scryptCosts()).toEqual([131072]);
  });

  it('an old N=16384 hash still verifies, and the sign-in upgrades it to N=2^17', async () => {
    expect(await storedHash()).toMatch(/^scrypt\$16384\$8\$1\$/);
    const response = await signIn(TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(scryptCosts()).toEqual([16384, 131072]);
    const upgraded = await storedHash();
    expect(upgraded).toMatch(PRODUCTION_PREFIX);

    // The next sign-in verifies against the new hash, once, and writes nothing.
    vi.mocked(crypto.scrypt).mockClear();
    expect((await signIn(TEST_PASSWORD)).statusCode).toBe(200);
    expect(scryptCosts()).toEqual([131072]);
    expect(await storedHash()).toBe(upgraded);
  });

  it('an upgrade does not overwrite a password changed in the meantime', async () => {
    const current = await storedHash();
    const user = await svc.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await upgradePasswordHash(svc.ctx.db, user.id, 'scrypt$an-older-hash', 'scrypt$replacement');
    expect(await storedHash()).toBe(current);
  });
});

describe('seed imports and the scrypt cost', () => {
  let database: OpenedDatabase;
  beforeAll(async () => {
    database = await openDatabase(':memory:');
  });
  afterAll(async () => {
    await database?.close();
  });
  const demoUser = () =>
    database.db
      .selectFrom('users')
      .select(['password_hash', 'seed_source'])
      .where('email', '=', DEMO_EMAIL)
      .executeTakeFirstOrThrow();

  it('the demo import hashes at N=2^17 once; importing it again (every `--seed demo` start) and the start-up notice run no scrypt', async () => {
    await importDemoWorkspace(database.db); // two users: demo and summit
    expect(scryptCosts()).toEqual([131072, 131072]);
    const first = await demoUser();
    expect(first.password_hash).toMatch(PRODUCTION_PREFIX);

    vi.mocked(crypto.scrypt).mockClear();
    await importDemoWorkspace(database.db);
    expect(await demoSignInUnchanged(database.db)).toBe(true);
    expect(scryptCosts()).toEqual([]);
    expect(await demoUser()).toEqual(first);
  });

  it('another bundle that changes the demo password is noticed, and the demo import then restores it', async () => {
    await importSeedBundle(
      database.db,
      { users: [{ email: DEMO_EMAIL, password: 'a-private-password' }] },
      { passwordCost: TEST_PASSWORD_COST },
    );
    expect((await demoUser()).seed_source).toBeNull();
    expect(await demoSignInUnchanged(database.db)).toBe(false);

    await importDemoWorkspace(database.db);
    expect(await verifyPassword(DEMO_PASSWORD, (await demoUser()).password_hash)).toBe(true);
    expect(await demoSignInUnchanged(database.db)).toBe(true);
  });

  it('a bundle without a source checks an unchanged password (keeping its hash), and re-hashes one stored at a lower cost', async () => {
    const bundle = { users: [{ email: 'kept@a.test', password: TEST_PASSWORD }] };
    const options = { passwordCost: TEST_PASSWORD_COST };
    await importSeedBundle(database.db, bundle, options);
    const hashOf = async () =>
      (
        await database.db
          .selectFrom('users')
          .select('password_hash')
          .where('email', '=', 'kept@a.test')
          .executeTakeFirstOrThrow()
      ).password_hash;
    const first = await hashOf();
    vi.mocked(crypto.scrypt).mockClear();
    await importSeedBundle(database.db, bundle, options);
    expect(await hashOf()).toBe(first);
    expect(scryptCosts()).toEqual([TEST_PASSWORD_COST.N]);

    const cheaper = await hashPassword(TEST_PASSWORD, { N: 512, r: 8, p: 1 });
    await database.db
      .updateTable('users')
      .set({ password_hash: cheaper })
      .where('email', '=', 'kept@a.test')
      .execute();
    await importSeedBundle(database.db, bundle, options);
    const rehashed = await hashOf();
    expect(rehashed).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword(TEST_PASSWORD, rehashed)).toBe(true);
  });
});
