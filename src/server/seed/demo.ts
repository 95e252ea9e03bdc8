import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import demoBilling from '../../../resources/demo-billing.json';
import demoClaims from '../../../resources/demo-claims.json';
import demoTransactions from '../../../resources/demo-transactions.json';
import demoBase from '../../../resources/demo-workspace.json';
import type { Database } from '../db/schema';
import { findUserIdByEmail, orderExists, restoreSentTimes } from './queries';
import type { ServiceContext } from '../core/context';
import {
  demoEdiOrders,
  exchangeDemoDocuments,
  ingestDemoPurchaseOrders,
  type DemoDocumentsSource,
} from './demo-documents';
import { demoLogEntries } from './demo-log';
import { verifyPassword } from '../access';
import { importSeedBundle, type SeedImportOptions } from './seed';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';

interface DemoBundle {
  bundle: unknown;
  /**
   * The demo bundle as a seed source: its digest changes whenever the built-in files or the log
   * generator do, so a start with `--seed demo` re-checks the demo password only then (scrypt
   * costs ~0.3 s).
   */
  source: string;
}
let demo: DemoBundle | null = null;

/**
 * The demo bundle: the base workspace plus the sections later features keep in their own files,
 * and the log rows made from the demo's own connections and orders (./demo-log). Built on first
 * use, not at load: a start without the demo never pays for its ~2,000 log rows.
 */
function demoBundle(): DemoBundle {
  if (demo) return demo;
  const bundle = {
    ...demoBase,
    ...demoBilling,
    ...demoClaims,
    transactions: [
      ...demoTransactions.transactions,
      ...demoLogEntries(demoBase, demoTransactions.transactions),
    ],
  };
  const digest = createHash('sha256').update(JSON.stringify(bundle)).digest('hex').slice(0, 16);
  demo = { bundle, source: `demo:${digest}` };
  return demo;
}

/** The demo workspace (resources/demo-workspace.json): works offline, its connections write into the data dir. */
export function importDemoWorkspace(
  db: Kysely<Database>,
  options: Pick<SeedImportOptions, 'passwordCost'> = {},
) {
  const { bundle, source } = demoBundle();
  return importSeedBundle(db, bundle, { ...options, source });
}

const documentsSource = demoBase as unknown as DemoDocumentsSource;

/**
 * The demo workspace with its order documents (./demo-documents): on a fresh workspace the
 * retailers' 850s make the demo's EDI orders first, the bundle then brings every order to its
 * state, and the documents go out and are answered. A workstation gets documents from its
 * central instead, so it imports the bundle alone.
 */
export async function importDemoWorkspaceWithDocuments(ctx: ServiceContext) {
  const ediOrders = demoEdiOrders(documentsSource);
  const fresh =
    ctx.sync?.role !== 'workstation' &&
    ediOrders.length > 0 &&
    !(await orderExists(ctx.db, ediOrders[0]!.id));
  let nextControl: number | null = null;
  if (fresh) {
    const { organizations, facilities, brands, retailers, brand_facilities, connections } =
      demoBase;
    await importSeedBundle(ctx.db, {
      organizations,
      facilities,
      brands,
      retailers,
      brand_facilities,
      connections,
    });
    nextControl = await madeOrReported(async () => {
      return (await ingestDemoPurchaseOrders(ctx, documentsSource)).nextControl;
    });
  }
  const summary = await importDemoWorkspace(ctx.db);
  if (nextControl !== null) {
    const user = await findUserIdByEmail(ctx.db, DEMO_EMAIL);
    const control = nextControl;
    await madeOrReported(() =>
      exchangeDemoDocuments(ctx, documentsSource, {
        user: { id: user!.id, email: DEMO_EMAIL, brandId: null },
        nextControl: control,
      }),
    );
  }
  await restoreSentTimes(
    ctx.db,
    ediOrders.map((order) => order.id),
  );
  return summary;
}

/**
 * The documents are the demo's garnish: should making them fail, the workspace is still imported
 * (its orders come from the bundle) and the app starts; the reason goes to the service's log.
 */
async function madeOrReported<T>(make: () => Promise<T>): Promise<T | null> {
  try {
    return await make();
  } catch (error) {
    console.error(`the demo's order documents could not be made: ${(error as Error).message}`);
    return null;
  }
}

/** True while the demo user still has the published password, so it is safe to print it. */
export async function demoSignInUnchanged(db: Kysely<Database>): Promise<boolean> {
  const user = await findUserIdByEmail(db, DEMO_EMAIL);
  if (!user) return false;
  return (
    user.seed_source === demoBundle().source || verifyPassword(DEMO_PASSWORD, user.password_hash)
  );
}
