import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { SIGNING_SECRET } from './postgres-rules';

/**
 * The data dir's token signing secret into the database's (replacing one a PostgreSQL service
 * made when it started on the empty database), inside the copy's transaction. False when this
 * release keeps the secret in the data dir on PostgreSQL too, or the data dir has none.
 */
export async function copySigningSecret(
  client: pg.Client,
  dataDir: string,
  targetTables: string[],
): Promise<boolean> {
  const file = join(dataDir, SIGNING_SECRET.file);
  if (!targetTables.includes(SIGNING_SECRET.table) || !existsSync(file)) return false;
  const value = readFileSync(file, 'utf8').trim();
  await client.query(
    `INSERT INTO ${SIGNING_SECRET.table} (name, value, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO UPDATE SET value = excluded.value, created_at = excluded.created_at`,
    [SIGNING_SECRET.name, value, new Date().toISOString()],
  );
  return true;
}
