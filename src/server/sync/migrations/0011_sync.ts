import { sql, type Kysely } from 'kysely';

/**
 * Sync (issue 10, docs/sync.md): mutation log, row versions, conflicts, devices, senders.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Workstation: where it stands with the central (one row, id 1).
  await sql`CREATE TABLE sync_state (
        id integer PRIMARY KEY CHECK (id = 1),
        device_id text NOT NULL,
        acked_seq integer NOT NULL DEFAULT 0,
        cursor text,
        last_push_at text,
        last_pull_at text
      )`.execute(db);
  // Workstation: rows the capture triggers wrote in the open transaction; folded into one
  // mutation just before COMMIT (a lone statement's rows are folded by the next commit or loop).
  await sql`CREATE TABLE sync_capture (
        id integer PRIMARY KEY AUTOINCREMENT,
        tbl text NOT NULL,
        op text NOT NULL,
        row_key text NOT NULL,
        old_json text,
        new_json text,
        base_version integer
      )`.execute(db);
  // Both: mutations by client and seq. A workstation keeps its own; the central, what it applied.
  await sql`CREATE TABLE sync_mutations (
        client_id text NOT NULL,
        seq integer NOT NULL,
        name text NOT NULL,
        args text NOT NULL,
        base_version integer,
        at text NOT NULL,
        outcome text,
        applied_version integer,
        PRIMARY KEY (client_id, seq)
      )`.execute(db);
  // Central: each device's last applied seq.
  await sql`CREATE TABLE sync_clients (
        client_id text PRIMARY KEY,
        last_seq integer NOT NULL DEFAULT 0,
        last_push_at text,
        last_pull_at text
      )`.execute(db);
  // Central: the epoch a cursor must name (a new one after a reset of the central database).
  await sql`CREATE TABLE sync_meta (
        id integer PRIMARY KEY CHECK (id = 1),
        epoch text NOT NULL
      )`.execute(db);
  // Both: the version of each replicated row (central stamps it; a workstation stores what it
  // pulled); deleted = 1 is a tombstone. Scope columns let a pull filter by facility.
  await sql`CREATE TABLE sync_row_versions (
        tbl text NOT NULL,
        row_key text NOT NULL,
        version integer NOT NULL,
        deleted integer NOT NULL DEFAULT 0,
        facility_id text,
        order_id text,
        src_rowid integer,
        PRIMARY KEY (tbl, row_key)
      )`.execute(db);
  await sql`CREATE INDEX sync_row_versions_version ON sync_row_versions (version)`.execute(db);
  await sql`CREATE INDEX sync_row_versions_order ON sync_row_versions (order_id)
        WHERE order_id IS NOT NULL`.execute(db);
  // Central: an order that moved out of a facility; that facility's devices drop it.
  await sql`CREATE TABLE sync_evictions (
        version integer NOT NULL,
        facility_id text NOT NULL,
        order_id text NOT NULL
      )`.execute(db);
  await sql`CREATE INDEX sync_evictions_version ON sync_evictions (version)`.execute(db);
  // Both (replicated): mutations the central refused for good, until a clerk resolves them.
  await sql`CREATE TABLE sync_conflicts (
        id text PRIMARY KEY,
        client_id text NOT NULL,
        seq integer NOT NULL,
        mutation text NOT NULL,
        order_id text,
        facility_id text,
        reason text NOT NULL,
        fields_json text NOT NULL,
        changes_json text NOT NULL,
        status text NOT NULL DEFAULT 'open',
        resolution text,
        created_at text NOT NULL,
        resolved_at text,
        resolved_by text,
        updated_at text NOT NULL
      )`.execute(db);
  await sql`CREATE INDEX sync_conflicts_status ON sync_conflicts (status, created_at DESC)`.execute(
    db,
  );
  // Central: workstations allowed to sync, with the facilities they serve.
  await sql`CREATE TABLE devices (
        id text PRIMARY KEY,
        name text NOT NULL,
        secret_hash text NOT NULL,
        seed_source text,
        created_at text NOT NULL,
        disabled_at text
      )`.execute(db);
  await sql`CREATE TABLE device_facilities (
        device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
        facility_id text NOT NULL REFERENCES facilities(id),
        PRIMARY KEY (device_id, facility_id)
      )`.execute(db);
  // Who sends a connection's deliveries on a synced install: the central or the workstation
  // that made the snapshot. Each delivery names its one sender (null: this standalone install).
  await sql`ALTER TABLE connections ADD COLUMN sender text NOT NULL DEFAULT 'central'`.execute(db);
  await sql`ALTER TABLE advice_deliveries ADD COLUMN sender_id text`.execute(db);
}
