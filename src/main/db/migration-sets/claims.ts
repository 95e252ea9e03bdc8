import type { Migration } from 'kysely';

/** Migrations of this feature; the next one is named '0010_claims' (keep the names sortable). */
export const claimsMigrations: Record<string, Migration> = {};
