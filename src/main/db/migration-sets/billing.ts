import type { Migration } from 'kysely';

/** Migrations of this feature; the next one is named '0009_billing' (keep the names sortable). */
export const billingMigrations: Record<string, Migration> = {};
