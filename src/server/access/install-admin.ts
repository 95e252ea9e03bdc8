import { sql } from 'kysely';
import type { Db } from '../db/db';
import type { AuthUser, ServiceContext } from '../core/context';
import { DomainError } from '../core/errors';

/** Why a user who is not an install admin is refused (`error.details` of the 403). */
export const NOT_INSTALL_ADMIN =
  'Only an admin of every facility on this install may change this setting';

/**
 * "Install admin" (docs/decisions.md): a user whose admin grants cover every facility this
 * install holds. Settings that act for the whole machine (the central it syncs with, its device,
 * the label printer) serve every tenant on it, so an admin of one brand or one facility must not
 * be able to point them elsewhere. An install with no facilities has no install admin.
 */
export async function isInstallAdmin(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('facilities as f')
    .select([
      sql<number>`count(*)`.as('facilities'),
      // CASE, not sum(EXISTS …): PostgreSQL has no sum(boolean); this reads the same on both.
      sql<number>`sum(CASE WHEN EXISTS (SELECT 1 FROM user_admin a
        WHERE a.user_id = ${userId} AND a.facility_id = f.id) THEN 1 ELSE 0 END)`.as('covered'),
    ])
    .executeTakeFirstOrThrow();
  return row.facilities > 0 && row.covered === row.facilities;
}

/** Refuses (403 `Unauthorized`, the interface's message; the reason in details) a user who is not one. */
export async function requireInstallAdmin(ctx: ServiceContext, user: AuthUser): Promise<void> {
  if (!(await isInstallAdmin(ctx.db, user.id))) {
    throw new DomainError('forbidden', 'UNAUTHORIZED', 'Unauthorized', {
      details: NOT_INSTALL_ADMIN,
    });
  }
}
