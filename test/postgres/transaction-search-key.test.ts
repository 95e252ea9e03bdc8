import { randomBytes } from 'node:crypto';
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { postgresMigrationProvider } from '../../src/server/db/postgres/migrations';
import { listTransactions, type TransactionScope } from '../../src/server/transactions/queries';
import { baseBundle, id } from '../helpers/fixtures';
import { databaseUrl, onAdmin } from '../helpers/postgres/databases';
import { createTestService, type TestService } from '../helpers/service';

/*
 * The log's stored search key on PostgreSQL (migration 0018_transactions_search_key): computed
 * for the rows a database already has when the migration runs, and by PostgreSQL itself for
 * every write after, so the search follows inserts and updates of the five searched columns and
 * never matches across two of them. same-answers.test.ts compares whole answers with SQLite's.
 */
const postgres = inject('postgres');

const ROW_SQL = `INSERT INTO transactions (transaction_id, action_type, action_type_label,
  order_id, correlation_id, duration_ms, error_message, execution_status, request_method,
  request_url, created_at, updated_at)
  VALUES ($1, 'SEND_ASN', 'Send ASN', $2, $3, 5, $4, 'FAILURE', 'POST', $5,
    '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`;

describe.skipIf(!postgres)('the transaction search key on PostgreSQL', () => {
  it('is computed for the rows already there when migration 0018 runs', async () => {
    const name = `sk_${randomBytes(6).toString('hex')}`;
    await onAdmin(postgres!.adminUrl, [`CREATE DATABASE ${name}`]);
    const url = databaseUrl(postgres!.adminUrl, name);
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    try {
      const migrator = new Migrator({ db, provider: postgresMigrationProvider });
      expect((await migrator.migrateTo('0017_sync_stamps')).error).toBeUndefined();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(ROW_SQL, [
        'TX-ONE',
        'Order-9',
        null,
        'Partner says QUOKKA',
        'https://Edi.Example/v1/asn',
      ]);
      await client.end();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const { rows } = await sql<{
        search_key: string;
      }>`SELECT search_key FROM transactions`.execute(db);
      expect(rows).toEqual([
        {
          search_key:
            'tx-one\u001forder-9\u001f\u001fpartner says quokka\u001fhttps://edi.example/v1/asn',
        },
      ]);
      const { rows: indexes } = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes
        WHERE tablename = 'transactions' AND indexname LIKE '%trgm' ORDER BY 1`.execute(db);
      expect(indexes.map((i) => i.indexname)).toEqual(['transactions_search_key_trgm']);
    } finally {
      await db.destroy();
      await onAdmin(postgres!.adminUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
    }
  });

  describe('on a service', () => {
    let svc: TestService;
    const scope: TransactionScope = { facilityIds: [id('f', 1)], userBrandId: null, brandIds: [] };
    const found = async (term: string) => {
      const { rows, totalCount } = await listTransactions(
        svc.ctx.db,
        { scope, search: term },
        { field: 'created_at', direction: 'desc' },
        { limit: 50, offset: 0 },
      );
      expect(totalCount).toBe(rows.length);
      return rows.map((row) => row.transaction_id);
    };
    beforeAll(async () => {
      svc = await createTestService({ seed: baseBundle(), engine: 'postgres' });
      await sql`INSERT INTO transactions (transaction_id, action_type, action_type_label,
          facility_id, duration_ms, error_message, execution_status, request_method, request_url,
          created_at, updated_at)
        VALUES ('tx-a', 'SEND_ASN', 'Send ASN', ${id('f', 1)}, 5, 'ends with abc', 'FAILURE',
          'POST', 'def://starts', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
        svc.ctx.db,
      );
    });
    afterAll(async () => {
      await svc?.close();
    });

    it('follows updates of the searched columns', async () => {
      expect(await found('ENDS WITH')).toEqual(['tx-a']);
      await sql`UPDATE transactions SET error_message = 'Now Says Wombat', correlation_id = 'Corr-77'
        WHERE transaction_id = 'tx-a'`.execute(svc.ctx.db);
      expect(await found('ends with')).toEqual([]);
      expect(await found('says wombat')).toEqual(['tx-a']);
      expect(await found('CORR-7')).toEqual(['tx-a']);
      await sql`UPDATE transactions SET error_message = NULL WHERE transaction_id = 'tx-a'`.execute(
        svc.ctx.db,
      );
      expect(await found('wombat')).toEqual([]);
    });

    it('never matches across two columns', async () => {
      await sql`UPDATE transactions SET error_message = 'ends with abc' WHERE transaction_id = 'tx-a'`.execute(
        svc.ctx.db,
      );
      expect(await found('abc')).toEqual(['tx-a']);
      expect(await found('def:')).toEqual(['tx-a']);
      expect(await found('abcdef')).toEqual([]);
      expect(await found('abc%def')).toEqual([]);
    });
  });
});
