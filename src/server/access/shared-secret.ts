import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/db';

const NAME = 'jwt-signing';

/**
 * The token signing secret on PostgreSQL: one row of `service_secrets` (migration
 * 0017_process_coordination) that every central process on the database signs and verifies
 * with, so a token one process issued is accepted by the others behind the load balancer. The
 * first process to start creates it; a race between two first starts keeps one (ON CONFLICT),
 * and both read that one back. SQLite keeps the secret in the data dir (tokens.ts).
 */
export async function loadOrCreateSharedSecret(db: Db, at: string): Promise<Uint8Array> {
  await sql`INSERT INTO service_secrets (name, value, created_at)
    VALUES (${NAME}, ${randomBytes(32).toString('base64')}, ${at})
    ON CONFLICT (name) DO NOTHING`.execute(db);
  const { rows } = await sql<{
    value: string;
  }>`SELECT value FROM service_secrets WHERE name = ${NAME}`.execute(db);
  return Buffer.from(rows[0]!.value, 'base64');
}
