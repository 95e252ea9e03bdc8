import type { FastifyInstance } from 'fastify';
import {
  defaultDeliveryPolicy,
  type DeliveryPolicy,
} from '../../src/server/inventory/transmission/types';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import type { Clock, ServiceContext } from '../../src/server/core/context';
import type { PasswordCost } from '../../src/server/access/passwords';
import { importSeedBundle } from '../../src/server/seed/seed';
import { buildApp } from '../../src/server/http/app';
import type { Engine } from '../../src/server/db/engine';
import { openPostgres } from '../../src/server/db/postgres/open';
import { inject } from 'vitest';
import { cloneTemplate } from './postgres/databases';

export interface TestService {
  app: FastifyInstance;
  ctx: ServiceContext;
  /** Absent: SQLite. */
  engine?: Engine;
  /** On PostgreSQL, the database's URL: a second service may open the same one (postgresUrl). */
  postgresUrl?: string;
  /** The SQLite handle; reading it on PostgreSQL throws (such a test is SQLite-only). */
  database: OpenedDatabase;
  /** Signs in through the API and returns the bearer header value. */
  login(email: string, password?: string): Promise<string>;
  close(): Promise<void>;
}

export const TEST_PASSWORD = 'correct-horse-battery';

/** Tests hash at a low scrypt cost to stay fast; test/api/password-cost.test.ts covers PASSWORD_COST. */
export const TEST_PASSWORD_COST: PasswordCost = { N: 1024, r: 8, p: 1 };

/** An in-memory service (Fastify inject), optionally seeded with a bundle. */
export async function createTestService(
  options: {
    seed?: unknown;
    clock?: Clock;
    dataDir?: string;
    deliveryPolicy?: Partial<DeliveryPolicy>;
    /** scrypt cost for seeded and upgraded hashes; TEST_PASSWORD_COST unless given. */
    passwordCost?: PasswordCost;
    /** SQLite in memory unless 'postgres': a database cloned from the tests' template. */
    engine?: Engine;
    /**
     * PostgreSQL: open this database (another test service's `postgresUrl`) instead of a clone,
     * as a second central process on the same database does; its owner drops it.
     */
    postgresUrl?: string;
    /**
     * SQLite: the database file `app.sqlite` of this folder instead of memory, so a later test
     * service opens the same database again (a restart).
     */
    sqliteDir?: string;
  } = {},
): Promise<TestService> {
  // TEST_ENGINE=postgres runs a suite written for one engine on PostgreSQL (a survey of what
  // is still engine-bound); describeEngines passes the engine explicitly.
  const engine =
    options.engine ??
    (options.postgresUrl || process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite');
  const store =
    engine === 'postgres'
      ? await openPostgresForTest(options.postgresUrl)
      : await openDatabase(options.sqliteDir ?? ':memory:');
  const ctx: ServiceContext = {
    db: store.db,
    secret: new TextEncoder().encode('test-secret-test-secret-test-secret!'),
    clock: options.clock ?? { now: () => new Date() },
    dataDir: options.dataDir ?? '/tmp/fulfillment-test-data',
    deliveryPolicy: { ...defaultDeliveryPolicy, ...options.deliveryPolicy },
    deliveryConcurrency: 8,
    deliveriesInFlight: new Set(),
    passwordCost: options.passwordCost ?? TEST_PASSWORD_COST,
  };
  if (options.seed) {
    await importSeedBundle(ctx.db, options.seed, { passwordCost: ctx.passwordCost });
  }
  const app = await buildApp(ctx, { host: '127.0.0.1', uiDir: null });
  await app.ready();
  return {
    app,
    ctx,
    engine,
    ...('url' in store ? { postgresUrl: store.url } : {}),
    get database() {
      if (!('sqlite' in store))
        throw new Error('this test reads SQLite directly: not on PostgreSQL');
      return store;
    },
    async login(email, password = TEST_PASSWORD) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/token',
        payload: { email, password },
      });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
      return `Bearer ${response.json().data.access_token as string}`;
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/**
 * A pool of a few connections on a fresh clone of the migrated template, dropped at close; or on
 * `sharedUrl`, another test service's database, left for its owner to drop.
 */
async function openPostgresForTest(sharedUrl?: string) {
  if (sharedUrl) return { ...(await openPostgres(sharedUrl, 4)), url: sharedUrl };
  const postgres = inject('postgres');
  if (!postgres)
    throw new Error('no PostgreSQL for tests (see test/helpers/postgres/global-setup.ts)');
  const cloned = await cloneTemplate(postgres);
  const opened = await openPostgres(cloned.url, 4);
  return {
    ...opened,
    url: cloned.url,
    async close() {
      await opened.close();
      await cloned.drop();
    },
  };
}
