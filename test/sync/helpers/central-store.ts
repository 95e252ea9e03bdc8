import { rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { Engine } from '../../../src/server/db/engine';
import { databaseUrl, onAdmin } from '../../helpers/postgres/databases';
import {
  finishedOrdersBy,
  finishedOrdersIn,
  renoStateBy,
  renoStateIn,
  type RenoState,
  type Row,
} from './convergence-model';
import { centralLastSeq, ordersOf, poNumberIn, readDb, seqsIn, userIdsOf } from './process-cluster';

/**
 * What a process test reads from a central process's database while it runs, on either engine:
 * SQLite in its data dir (opened read-only per read), or a PostgreSQL database of its own.
 */
export interface CentralStore {
  readonly engine: Engine;
  /** Flags for the central process: `--database-url …` on PostgreSQL, none on SQLite. */
  readonly args: string[];
  poNumber(picksheet: string): Promise<string | null>;
  orders(facilityId: string): Promise<{ id: string; po: string | null }[]>;
  userIds(): Promise<string[]>;
  seqs(clientId: string): Promise<{ seq: number; n: number }[]>;
  lastSeq(clientId: string): Promise<number>;
  /** The convergence model's Reno rows (convergence-model.ts). */
  renoState(): Promise<RenoState>;
  /** Shipped and Cancelled orders by id, as JSON rows. */
  finishedOrders(): Promise<Map<string, string>>;
  conflictReasons(): Promise<string[]>;
  /** Throws the database away for an empty one (the central must be stopped). */
  reset(): Promise<void>;
  /** Drops the PostgreSQL database (after the processes are gone). */
  drop(): Promise<void>;
}

export async function centralStore(engine: Engine, dataDir: string): Promise<CentralStore> {
  if (engine === 'sqlite') {
    return {
      engine,
      args: [],
      poNumber: async (picksheet) => poNumberIn(dataDir, picksheet),
      orders: async (facilityId) => ordersOf(dataDir, facilityId),
      userIds: async () => userIdsOf(dataDir),
      seqs: async (clientId) => seqsIn(dataDir, clientId),
      lastSeq: async (clientId) => centralLastSeq(dataDir, clientId),
      renoState: async () => readDb(dataDir, renoStateIn),
      finishedOrders: async () => readDb(dataDir, finishedOrdersIn),
      conflictReasons: async () =>
        readDb(dataDir, (db) =>
          (db.prepare(`SELECT reason FROM sync_conflicts`).all() as { reason: string }[]).map(
            (r) => r.reason,
          ),
        ),
      reset: async () => rmSync(dataDir, { recursive: true, force: true }),
      drop: async () => {},
    };
  }
  return postgresCentralStore(dataDir);
}

/** int8 and numeric as numbers, as the service's pool reads them (db/postgres/open.ts). */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 1700
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A database cloned from the tests' template under a fixed name, so a reset keeps the URL. */
export async function postgresCentralStore(dataDir: string): Promise<CentralStore> {
  const postgres = inject('postgres');
  if (!postgres) throw new Error('no PostgreSQL for tests (see test/helpers/postgres)');
  const name = `p_${randomBytes(6).toString('hex')}`;
  const fresh = () =>
    onAdmin(postgres.adminUrl, [
      `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
      `CREATE DATABASE ${name} TEMPLATE ${postgres.template} STRATEGY WAL_LOG`,
    ]);
  await fresh();
  const url = databaseUrl(postgres.adminUrl, name);
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url, types });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    engine: 'postgres',
    args: ['--database-url', url],
    async poNumber(picksheet) {
      const rows = await query<{ po_number: string | null }>(
        `SELECT po_number FROM orders WHERE picksheet_code = $1`,
        [picksheet],
      );
      return rows[0]?.po_number ?? null;
    },
    orders: (facilityId) =>
      query(`SELECT id, po_number AS po FROM orders WHERE facility_id = $1 ORDER BY id`, [
        facilityId,
      ]),
    userIds: async () =>
      (await query<{ id: string }>(`SELECT id FROM users ORDER BY id`)).map((u) => u.id),
    seqs: async (clientId) =>
      (
        await query<{ seq: string; n: string }>(
          `SELECT seq, COUNT(*) AS n FROM sync_mutations WHERE client_id = $1 GROUP BY seq ORDER BY seq`,
          [clientId],
        )
      ).map((r) => ({ seq: Number(r.seq), n: Number(r.n) })),
    async lastSeq(clientId) {
      const rows = await query<{ last_seq: string }>(
        `SELECT last_seq FROM sync_clients WHERE client_id = $1`,
        [clientId],
      );
      return Number(rows[0]?.last_seq ?? 0);
    },
    renoState: () => renoStateBy((text) => query<Row>(text)),
    finishedOrders: () => finishedOrdersBy((text) => query<Row>(text)),
    conflictReasons: async () =>
      (await query<{ reason: string }>(`SELECT reason FROM sync_conflicts`)).map((r) => r.reason),
    async reset() {
      // A new central: its data dir (files) goes too, as on SQLite.
      rmSync(dataDir, { recursive: true, force: true });
      await fresh();
    },
    drop: () => onAdmin(postgres.adminUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]),
  };
}
