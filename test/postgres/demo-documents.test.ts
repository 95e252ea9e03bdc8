/**
 * The demo on PostgreSQL (issue 17): `--seed demo --database-url …` makes the same order
 * documents as on SQLite: every state, the same counts and control numbers, and nothing logged
 * as failed (making them never stops the start, so a failure would only be logged).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { startService, type RunningService } from '../../src/server/http/server';
import { cloneTemplate, type ClonedDatabase } from '../helpers/postgres/databases';
import { TEST_PASSWORD_COST } from '../helpers/service';

const postgres = inject('postgres');

/** What the demo's documents are, apart from ids and times. */
async function factsOf(service: RunningService) {
  const db = service.context.db;
  const sorted = (rows: unknown[]) => rows.map((row) => JSON.stringify(row)).sort();
  return {
    documents: sorted(
      await db
        .selectFrom('order_documents')
        .select([
          'order_id',
          'type',
          'direction',
          'status',
          'interchange_control_number',
          'group_control_number',
          'transaction_control_number',
        ])
        .execute(),
    ),
    interchanges: sorted(
      await db
        .selectFrom('edi_interchanges')
        .select(['connection_id', 'control_number', 'outcome'])
        .execute(),
    ),
    poLines: (await db.selectFrom('order_po_lines').select(['order_id', 'line_id']).execute())
      .length,
    changes: sorted(
      await db
        .selectFrom('transactions')
        .select(['order_id', 'execution_status'])
        .where('action_type', '=', 'INGEST_PURCHASE_ORDER_CHANGE')
        .execute(),
    ),
  };
}

describe.skipIf(!postgres)('the demo’s order documents on PostgreSQL', () => {
  let cloned: ClonedDatabase;
  const dirs: string[] = [];
  const services: RunningService[] = [];
  let logged = '';

  async function start(databaseUrl?: string) {
    const dataDir = mkdtempSync(join(tmpdir(), 'pg-demo-documents-'));
    dirs.push(dataDir);
    const service = await startService(
      {
        host: '127.0.0.1',
        port: 0,
        dataDir,
        seed: 'demo',
        uiDir: null,
        outboxDrain: false,
        ...(databaseUrl ? { databaseUrl, poolSize: 3 } : {}),
      },
      { passwordCost: TEST_PASSWORD_COST },
    );
    services.push(service);
    return service;
  }

  let onPostgres: RunningService;
  let onSqlite: RunningService;
  beforeAll(async () => {
    cloned = await cloneTemplate(postgres!);
    const errors = vi.spyOn(console, 'error');
    try {
      onPostgres = await start(cloned.url);
      logged = errors.mock.calls.flat().join('\n');
    } finally {
      errors.mockRestore();
    }
    onSqlite = await start();
  }, 120_000);
  afterAll(async () => {
    for (const service of services) await service.close();
    await cloned?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('logs no failure while making them', () => {
    expect(logged).not.toContain('order documents could not be made');
  });

  it('has its documents in every state, as on SQLite', async () => {
    const pg = await factsOf(onPostgres);
    const statuses = new Set(
      pg.documents.map((row) => (JSON.parse(row) as { status: string }).status),
    );
    for (const status of [
      'queued',
      'sent',
      'accepted',
      'accepted_with_errors',
      'rejected',
      'failed',
    ]) {
      expect(statuses, status).toContain(status);
    }
    expect(pg.poLines).toBeGreaterThan(0);
    expect(pg).toEqual(await factsOf(onSqlite));
  });
});
