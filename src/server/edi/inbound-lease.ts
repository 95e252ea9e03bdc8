/**
 * Cross-process leases of polled inbound sources, on PostgreSQL, where several central processes
 * poll the same folders and SFTP directories. A pass reads a file before it moves it, so without
 * a lease two processes could both take one file (a duplicate interchange, and a move that fails
 * for the one that comes second).
 *
 * One lease per connection's inbound source, held by one pass: a `delivery_claims` row keyed
 * `inbound-source:<connection id>` (delivery ids are UUIDs, so the keys never meet), written and
 * committed in one short statement before the pass lists the source, renewed before each file,
 * and deleted when the pass ends. No transaction is open while the pass reads or moves files. A
 * process killed mid-pass leaves its lease until it expires; another process then polls the
 * source. SQLite has one process, whose passes never overlap: there every lease is granted and
 * nothing is written.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';

export interface SourceLease {
  /** Takes or renews the lease for `ms` more; false once another pass holds it. */
  hold(): Promise<boolean>;
  /** Gives it back (never throws: an unreleased lease only expires later). */
  release(): Promise<void>;
}

export function inboundSourceLease(db: Db, connectionId: string, ms: number): SourceLease {
  const key = `inbound-source:${connectionId}`;
  const pass = randomUUID();
  if (engineOf(db) === 'sqlite') return { hold: async () => true, release: async () => {} };
  return {
    async hold() {
      const { rows } = await sql<{ delivery_id: string }>`
        INSERT INTO delivery_claims (delivery_id, owner, expires_at)
        VALUES (${key}, ${pass}, clock_timestamp() + make_interval(secs => ${ms / 1000}))
        ON CONFLICT (delivery_id) DO UPDATE
          SET owner = excluded.owner, expires_at = excluded.expires_at
          WHERE delivery_claims.owner = excluded.owner
            OR delivery_claims.expires_at < clock_timestamp()
        RETURNING delivery_id`.execute(db);
      return rows.length === 1;
    },
    async release() {
      await sql`DELETE FROM delivery_claims WHERE delivery_id = ${key} AND owner = ${pass}`
        .execute(db)
        .catch((error: unknown) =>
          console.error(`inbound source lease ${key} not released: ${(error as Error).message}`),
        );
    },
  };
}
