import type { Kysely } from 'kysely';
import demoWorkspace from '../../../resources/demo-workspace.json';
import type { Database } from '../db/schema';
import { findUserByEmail } from '../db/users';
import { verifyPassword } from './passwords';
import { importSeedBundle } from './seed';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';

/** The demo workspace (resources/demo-workspace.json): works offline, its connections write into the data dir. */
export function importDemoWorkspace(db: Kysely<Database>) {
  return importSeedBundle(db, demoWorkspace);
}

/** True while the demo user still has the published password, so it is safe to print it. */
export async function demoSignInUnchanged(db: Kysely<Database>): Promise<boolean> {
  const user = await findUserByEmail(db, DEMO_EMAIL);
  return user ? verifyPassword(DEMO_PASSWORD, user.password_hash) : false;
}
