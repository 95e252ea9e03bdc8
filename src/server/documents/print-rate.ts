import { randomUUID } from 'node:crypto';
import type { AuthUser, ServiceContext } from '../core/context';
import { DomainError } from '../core/errors';
import { engineOf } from '../db/engine';
import { lockUserPrints as sqliteLock } from './print-rate-lock';
import { lockUserPrints as postgresLock } from './print-rate-lock.postgres';

/**
 * Prints per user: 30 a minute (docs/decisions.md). Packing a carton a few seconds apart and
 * printing its label stays far below it; a script scanning addresses or flooding the printer does
 * not. Counted in the database (`print_admissions`), so every central process on one PostgreSQL
 * database shares the count and a restart keeps it.
 */
export const PRINTS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

/**
 * Counts a print for the user, or refuses it (429) when the last minute already holds the limit.
 * One short transaction, serialised per user (./print-rate-lock*), deletes the user's rows that
 * left the window, counts the rest and inserts this print's row if there is room: parallel
 * requests, on any process, each see every earlier one. No network I/O inside it.
 */
export async function admitPrint(ctx: ServiceContext, user: AuthUser): Promise<void> {
  const now = ctx.clock.now().getTime();
  const lock = engineOf(ctx.db) === 'postgres' ? postgresLock : sqliteLock;
  const oldest = await ctx.db.transaction().execute(async (trx) => {
    await lock(trx, user.id);
    await trx
      .deleteFrom('print_admissions')
      .where('user_id', '=', user.id)
      .where('admitted_at', '<=', now - WINDOW_MS)
      .execute();
    const held = await trx
      .selectFrom('print_admissions')
      .select((eb) => [eb.fn.countAll().as('prints'), eb.fn.min('admitted_at').as('oldest')])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    if (Number(held.prints) >= PRINTS_PER_MINUTE) return Number(held.oldest);
    await trx
      .insertInto('print_admissions')
      .values({ id: randomUUID(), user_id: user.id, admitted_at: now })
      .execute();
    return null;
  });
  if (oldest === null) return;
  const seconds = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
  throw new DomainError(
    'rate_limited',
    'INVALID_REQUEST',
    `Too many prints: at most ${PRINTS_PER_MINUTE} a minute; try again in ${seconds} s`,
    { details: { retry_after_seconds: seconds } },
  );
}
