/**
 * How many database pages one advice writes to the WAL, per commit: the outbox commit
 * (snapshot, delivery rows, documents) and the outcome commit (attempt log rows, states). Each
 * page is written twice in the end (WAL, then the checkpoint into the database file), and
 * `synchronous = FULL` syncs the WAL at every commit, so this is the disk work an advice costs.
 */
import { sql } from 'kysely';
import type { AuthUser, ServiceContext } from '../src/server/core/context';
import { writeOutbox } from '../src/server/inventory/advise';
import { runDeliveries } from '../src/server/inventory/transmission/engine';
import { resolveTargets, type AdviceScope } from '../src/server/inventory/targets';
import { validateAdvice } from '../src/server/inventory/validate';

export interface WalPages {
  /** Median pages of the outbox commit. */
  outbox: number;
  /** Median pages of the outcome commit(s). */
  outcomes: number;
}

/** Pages in the WAL now; a PASSIVE checkpoint reports them without waiting for readers. */
async function walFrames(ctx: ServiceContext): Promise<number> {
  const result = await sql<{ log: number }>`PRAGMA wal_checkpoint(PASSIVE)`.execute(ctx.db);
  return result.rows[0]?.log ?? 0;
}

/** Empties the WAL, so the next commit's pages are counted alone. */
async function restartWal(ctx: ServiceContext): Promise<void> {
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(ctx.db);
}

export async function measureWalPages(
  ctx: ServiceContext,
  user: AuthUser,
  scope: AdviceScope,
  body: unknown,
  runs: number,
): Promise<WalPages> {
  const outbox: number[] = [];
  const outcomes: number[] = [];
  for (let i = 0; i < runs; i++) {
    const targets = await resolveTargets(ctx, user, scope);
    const items = validateAdvice(ctx, targets, body);
    await restartWal(ctx);
    const prepared = await writeOutbox(ctx, user, targets, items);
    outbox.push(await walFrames(ctx));
    await restartWal(ctx);
    await runDeliveries(ctx, prepared.jobs);
    outcomes.push(await walFrames(ctx));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
  return { outbox: median(outbox), outcomes: median(outcomes) };
}
