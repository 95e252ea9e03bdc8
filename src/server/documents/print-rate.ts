import type { AuthUser, ServiceContext } from '../core/context';
import { DomainError } from '../core/errors';

/**
 * Prints per user: 30 a minute (docs/decisions.md). Packing a carton a few seconds apart and
 * printing its label stays far below it; a script scanning addresses or flooding the printer does
 * not. Kept in memory per service: a restart forgets it, which is fine for a rate.
 */
export const PRINTS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

const recent = new WeakMap<ServiceContext, Map<string, number[]>>();

/**
 * Counts a print for the user, or refuses it (429) when the last minute already holds the limit.
 * Synchronous check-and-count, so parallel requests each see every earlier one.
 */
export function admitPrint(ctx: ServiceContext, user: AuthUser): void {
  const now = ctx.clock.now().getTime();
  let byUser = recent.get(ctx);
  if (!byUser) recent.set(ctx, (byUser = new Map()));
  const times = (byUser.get(user.id) ?? []).filter((t) => t > now - WINDOW_MS);
  if (times.length >= PRINTS_PER_MINUTE) {
    byUser.set(user.id, times);
    const seconds = Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
    throw new DomainError(
      'rate_limited',
      'INVALID_REQUEST',
      `Too many prints: at most ${PRINTS_PER_MINUTE} a minute; try again in ${seconds} s`,
      { details: { retry_after_seconds: seconds } },
    );
  }
  times.push(now);
  byUser.set(user.id, times);
}
