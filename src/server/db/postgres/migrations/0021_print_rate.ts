import { sql, type Kysely } from 'kysely';

/**
 * Twin of documents/migrations/0021_print_rate: the print rate's admitted prints, which every
 * central process on this database counts (documents/print-rate.ts). Epoch ms in bigint.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE "print_admissions" ("id" text primary key, "user_id" text not null, "admitted_at" bigint not null)`.execute(
    db,
  );
  await sql`CREATE INDEX "print_admissions_user_admitted" on "print_admissions" ("user_id", "admitted_at")`.execute(
    db,
  );
}
