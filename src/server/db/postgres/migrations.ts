import type { Migration, MigrationProvider } from 'kysely';
import * as baseline from './migrations/0015_baseline';
import * as adviceDocuments from './migrations/0016_advice_documents';
import * as ediDocumentStatus from './migrations/0016_edi_document_status';
import * as ediPoLinePosition from './migrations/0016_edi_po_line_position';
import * as jsonOrNull from './migrations/0016_json_or_null';

/**
 * PostgreSQL's migration list (docs/decisions, "PostgreSQL twins and migrations"). It starts at
 * the SQLite schema of 0015 in one baseline; each later SQLite migration gets a twin of the same
 * name here, so both engines' kysely_migration tables name the same steps from then on. Frozen
 * like the SQLite ones (test/postgres/schema-twin.test.ts checks the imports).
 */
const allMigrations: Record<string, Migration> = {
  '0015_baseline': baseline,
  '0016_advice_documents': adviceDocuments,
  '0016_edi_document_status': ediDocumentStatus,
  '0016_edi_po_line_position': ediPoLinePosition,
  '0016_json_or_null': jsonOrNull,
};

export const postgresMigrationProvider: MigrationProvider = {
  getMigrations: async () => allMigrations,
};
