import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/**
 * Migrations are code, keyed by a sortable name, and imported statically so that bundlers
 * (electron-vite) keep them; Kysely's FileMigrationProvider would need the files on disk.
 */
const migrations: Record<string, Migration> = {
  '0001_core': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('organizations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('facilities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('external_facility_code', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('brands')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('external_brand_code', 'text')
        .execute();
      await db.schema
        .createTable('retailers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('brand_facilities')
        .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
        .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
        .addPrimaryKeyConstraint('brand_facilities_pk', ['brand_id', 'facility_id'])
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('brand_id', 'text', (c) => c.references('brands.id'))
        .execute();
      await db.schema
        .createTable('user_facilities')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
        .addPrimaryKeyConstraint('user_facilities_pk', ['user_id', 'facility_id'])
        .execute();
      await db.schema
        .createTable('user_admin')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
        .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
        .addPrimaryKeyConstraint('user_admin_pk', ['user_id', 'brand_id', 'facility_id'])
        .execute();
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('email', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_started_at', 'integer', (c) => c.notNull())
        .addColumn('locked_until', 'integer')
        .execute();
      await db.schema
        .createTable('connections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
        .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
        .addColumn('retailer_id', 'text', (c) => c.notNull().references('retailers.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('transport_json', 'text', (c) => c.notNull())
        .addColumn('edi_json', 'text')
        .addColumn('interchange_counter', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('group_counter', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('connections_brand_org')
        .on('connections')
        .columns(['brand_id', 'organization_id'])
        .execute();
    },
  },
  '0002_advice': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('advice_snapshots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
        .addColumn('facility_id', 'text', (c) => c.references('facilities.id'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('items_json', 'text', (c) => c.notNull())
        .addColumn('item_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('advice_snapshots_brand_facility')
        .on('advice_snapshots')
        .columns(['brand_id', 'facility_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('advice_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('snapshot_id', 'text', (c) =>
          c.notNull().references('advice_snapshots.id').onDelete('cascade'),
        )
        .addColumn('connection_id', 'text', (c) => c.references('connections.id'))
        .addColumn('organization_id', 'text')
        .addColumn('retailer_id', 'text')
        .addColumn('kind', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('document', 'text')
        .addColumn('content_type', 'text')
        .addColumn('file_name', 'text')
        .addColumn('interchange_control_number', 'integer')
        .addColumn('error', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('advice_deliveries_snapshot')
        .on('advice_deliveries')
        .column('snapshot_id')
        .execute();
      await db.schema
        .createIndex('advice_deliveries_connection_status')
        .on('advice_deliveries')
        .columns(['connection_id', 'status', 'created_at'])
        .execute();
      await db.schema
        .createTable('transactions')
        .addColumn('transaction_id', 'text', (c) => c.primaryKey())
        .addColumn('action_type', 'text', (c) => c.notNull())
        .addColumn('action_type_label', 'text', (c) => c.notNull())
        .addColumn('brand_id', 'text')
        .addColumn('retailer_id', 'text')
        .addColumn('facility_id', 'text')
        .addColumn('order_id', 'text')
        .addColumn('carton_id', 'text')
        .addColumn('load_id', 'text')
        .addColumn('correlation_id', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('error_message', 'text')
        .addColumn('execution_status', 'text', (c) => c.notNull())
        .addColumn('request_method', 'text', (c) => c.notNull())
        .addColumn('request_url', 'text', (c) => c.notNull())
        .addColumn('request_payload', 'text')
        .addColumn('response_body', 'text')
        .addColumn('response_status', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await sql`CREATE INDEX transactions_created ON transactions (created_at)`.execute(db);
      await sql`CREATE INDEX transactions_correlation ON transactions (correlation_id)`.execute(db);
    },
  },
  '0003_signin_throttle': {
    async up(db: Kysely<unknown>) {
      // Every sign-in attempt is counted before the password is checked; the row keeps the last one.
      await sql`ALTER TABLE sign_in_failures RENAME COLUMN window_started_at TO last_attempt_at`.execute(
        db,
      );
      await db.schema
        .createIndex('sign_in_failures_last_attempt')
        .on('sign_in_failures')
        .column('last_attempt_at')
        .execute();
      // The seed source that last set or confirmed the password, so re-importing it skips scrypt.
      await db.schema.alterTable('users').addColumn('seed_source', 'text').execute();
    },
  },
  '0004_outbox_drain': {
    async up(db: Kysely<unknown>) {
      // The background drainer's durable state (src/main/advice/outbox-drainer.ts).
      await db.schema
        .alterTable('advice_deliveries')
        .addColumn('next_attempt_at', 'text')
        .execute();
      await db.schema
        .alterTable('advice_deliveries')
        .addColumn('auto_retries', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('advice_deliveries')
        .addColumn('given_up', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // What a crash left PENDING is due at once; older failures stay with the clerk.
      await sql`UPDATE advice_deliveries SET next_attempt_at = updated_at
        WHERE status = 'PENDING' AND document IS NOT NULL AND connection_id IS NOT NULL`.execute(
        db,
      );
      await db.schema
        .createIndex('advice_deliveries_due')
        .on('advice_deliveries')
        .column('next_attempt_at')
        .where(sql.ref('next_attempt_at'), 'is not', null)
        .execute();
    },
  },
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
