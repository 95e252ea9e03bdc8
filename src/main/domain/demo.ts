import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import demoBilling from '../../../resources/demo-billing.json';
import demoClaims from '../../../resources/demo-claims.json';
import demoTransactions from '../../../resources/demo-transactions.json';
import demoBase from '../../../resources/demo-workspace.json';
import type { Database } from '../db/schema';
import { findUserIdByEmail } from '../db/seed-writes';
import { verifyPassword } from './passwords';
import { importSeedBundle, type SeedImportOptions } from './seed';

/** The demo bundle: the base workspace plus the sections later features keep in their own files. */
const demoWorkspace = { ...demoBase, ...demoTransactions, ...demoBilling, ...demoClaims };

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';

/**
 * The demo bundle as a seed source: its digest changes whenever the built-in file does, so a start
 * with `--seed demo` re-checks the demo password only then (scrypt costs ~0.3 s).
 */
export const DEMO_SEED_SOURCE = `demo:${createHash('sha256')
  .update(JSON.stringify(demoWorkspace))
  .digest('hex')
  .slice(0, 16)}`;

/** The demo workspace (resources/demo-workspace.json): works offline, its connections write into the data dir. */
export function importDemoWorkspace(
  db: Kysely<Database>,
  options: Pick<SeedImportOptions, 'passwordCost'> = {},
) {
  return importSeedBundle(db, demoWorkspace, { ...options, source: DEMO_SEED_SOURCE });
}

/** True while the demo user still has the published password, so it is safe to print it. */
export async function demoSignInUnchanged(db: Kysely<Database>): Promise<boolean> {
  const user = await findUserIdByEmail(db, DEMO_EMAIL);
  if (!user) return false;
  return user.seed_source === DEMO_SEED_SOURCE || verifyPassword(DEMO_PASSWORD, user.password_hash);
}
