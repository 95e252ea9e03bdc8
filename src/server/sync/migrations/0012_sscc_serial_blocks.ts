import { sql, type Kysely } from 'kysely';

/**
 * Sync: SSCC serial blocks leased by the central to workstations.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // SSCC serials leased by the central to a workstation, so two workstations packing for
  // the same GS1 company prefix never make the same SSCC (docs/sync.md, SSCC serial blocks).
  await sql`CREATE TABLE sscc_serial_blocks (
        company_prefix text NOT NULL,
        first_serial integer NOT NULL,
        last_serial integer NOT NULL,
        device_id text NOT NULL,
        leased_at text NOT NULL,
        PRIMARY KEY (company_prefix, first_serial)
      )`.execute(db);
  await sql`CREATE INDEX sscc_serial_blocks_device ON sscc_serial_blocks
        (device_id, company_prefix, last_serial)`.execute(db);
}
