import type pg from 'pg';
import { copyFiles } from './copy-files';
import { copyTable, countBoth, planTable } from './copy-tables';
import { FILE_STORE_TABLE, NOT_ON_POSTGRES, VERSION_SEQUENCE } from './postgres-rules';
import { copySigningSecret } from './copy-secret';
import { MigrateCentralError, openSourceCentral, type SourceCentral } from './source';
import {
  foreignKeyOrder,
  listTargetTables,
  migrateTarget,
  openEmptyTarget,
  type TargetTable,
} from './target';

export { MigrateCentralError } from './source';
export { summaryLines, type MigrateCentralSummary } from './summary';
import type { MigrateCentralSummary } from './summary';

const MIGRATION_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * Copies a stopped SQLite central (`from`, its data dir) into an empty PostgreSQL database: the
 * PostgreSQL migrations first, then every table, the files and the sequences in ONE transaction,
 * so a failure leaves the database migrated but empty, and the copy can simply run again. Rows keep
 * their keys, versions, the epoch and each device's last_seq, so workstations carry on (docs/operations.md).
 */
export async function migrateCentral(options: {
  from: string;
  databaseUrl: string;
  log?: (line: string) => void;
}): Promise<MigrateCentralSummary> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const source = await openSourceCentral(options.from);
  try {
    const dataTables = [...source.tables.map((t) => t.name), FILE_STORE_TABLE];
    // Checked before migrating, so a database holding data is not touched at all.
    await (await openEmptyTarget(options.databaseUrl, dataTables)).end();
    log('applying the PostgreSQL migrations');
    await migrateTarget(options.databaseUrl);
    const client = await openEmptyTarget(options.databaseUrl, dataTables);
    try {
      return await copyInOneTransaction(source, client, log, started);
    } finally {
      await client.end();
    }
  } finally {
    source.close();
  }
}

async function copyInOneTransaction(
  source: SourceCentral,
  client: pg.Client,
  log: (line: string) => void,
  started: number,
): Promise<MigrateCentralSummary> {
  const target = (await listTargetTables(client)).filter((t) => !MIGRATION_TABLES.has(t.name));
  const byName = new Map<string, TargetTable>(target.map((t) => [t.name, t]));
  const skipped = source.tables.filter((t) => !byName.has(t.name)).map((t) => t.name);
  const unexpected = skipped.filter((name) => !NOT_ON_POSTGRES.test(name));
  if (unexpected.length > 0) {
    throw new MigrateCentralError(
      `Tables with no PostgreSQL counterpart: ${unexpected.join(', ')}; this release cannot copy them`,
    );
  }
  const copied = source.tables.filter((t) => byName.has(t.name));
  const order = await foreignKeyOrder(
    client,
    copied.map((t) => t.name),
  );
  await client.query('BEGIN');
  try {
    // Triggers would stamp copied rows with new versions and add them twice to the roll-ups,
    // which are copied as they are. Foreign keys stay on (they are not user triggers).
    for (const { name } of target) await client.query(`ALTER TABLE "${name}" DISABLE TRIGGER USER`);
    const tables: MigrateCentralSummary['tables'] = [];
    for (const name of order) {
      const table = copied.find((t) => t.name === name)!;
      const plan = planTable(name, table.columns, byName.get(name)!.columns, table.hasRowid);
      const rows = await copyTable(source, client, plan);
      log(`${name}: ${rows} rows`);
      tables.push({ name, rows });
    }
    const files = await copyFiles(client, source.dataDir, [...byName.keys()]);
    if (files.intoDatabase) log(`files: ${files.files} (${files.bytes} bytes)`);
    const signingSecret = await copySigningSecret(client, source.dataDir, [...byName.keys()]);
    const lastVersion = await setSequences(client);
    for (const { name } of tables) {
      const counts = await countBoth(source, client, name);
      if (counts.source !== counts.target) {
        throw new MigrateCentralError(
          `Row counts differ for ${name}: ${counts.source} in SQLite, ${counts.target} copied`,
        );
      }
    }
    for (const { name } of target) await client.query(`ALTER TABLE "${name}" ENABLE TRIGGER USER`);
    await client.query('COMMIT');
    return {
      epoch: source.epoch,
      tables,
      skipped,
      lastVersion,
      devices: tables.find((t) => t.name === 'devices')?.rows ?? 0,
      files,
      signingSecret,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Every identity column's sequence goes to the column's highest value, and the version sequence
 * (when this release has it) to the highest version copied. Returns that version.
 */
async function setSequences(client: pg.Client): Promise<number> {
  const { rows: identities } = await client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`,
  );
  for (const { table_name: table, column_name: column } of identities) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence($1, $2), max_id)
         FROM (SELECT max("${column}") AS max_id FROM "${table}") m WHERE max_id IS NOT NULL`,
      [`"${table}"`, column],
    );
  }
  const { rows } = await client.query<{ v: string }>(VERSION_SEQUENCE.highest);
  const lastVersion = Number(rows[0]!.v);
  const { rows: exists } = await client.query(
    `SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'S' AND c.relname = $1 AND n.nspname = current_schema()`,
    [VERSION_SEQUENCE.name],
  );
  // setval(…, false) when nothing was copied: the first nextval returns 1, as on a new central.
  if (exists.length > 0) {
    await client.query(`SELECT setval($1, $2, $3)`, [
      VERSION_SEQUENCE.name,
      Math.max(lastVersion, 1),
      lastVersion > 0,
    ]);
  }
  return lastVersion;
}
