import type { Kysely } from 'kysely';

/**
 * The core tables: organizations, facilities, brands, retailers, users and their grants, sign-in
 * failures, and the retailer connections.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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
}
