/** Shared pieces of the chargebacks and POS list tests: the file's service, a GET, a broken store. */
import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { startClaimsService, type ClaimsService, type ClaimUser } from './fixtures';

/** One claims service for the file's tests: started before them, closed after. */
export function claimsServiceForFile(): ClaimsService {
  let started: ClaimsService | undefined;
  beforeAll(async () => {
    started = await startClaimsService();
  });
  afterAll(async () => {
    await started?.svc.close();
  });
  const current = () => {
    if (!started) throw new Error('the claims service is not started yet');
    return started;
  };
  return {
    get svc() {
      return current().svc;
    },
    get tokens() {
      return current().tokens;
    },
    advance: (ms) => current().advance(ms),
  };
}

/** GET of the list at `path` as a user (null: without a token), the query string when given. */
export const listGetter =
  (claims: ClaimsService, path: string) =>
  (user: ClaimUser | null, query = '') =>
    claims.svc.app.inject({
      method: 'GET',
      url: `${path}${query ? `?${query}` : ''}`,
      headers: user ? { authorization: claims.tokens[user] } : {},
    });

/** The admin's GET of `path` on a fresh service whose `table` was dropped: the store failing. */
export async function getWithoutTable(table: string, path: string) {
  const broken = await startClaimsService();
  try {
    await sql`DROP TABLE ${sql.table(table)}`.execute(broken.svc.ctx.db);
    return await broken.svc.app.inject({
      method: 'GET',
      url: path,
      headers: { authorization: broken.tokens['admin@a.test'] },
    });
  } finally {
    await broken.svc.close();
  }
}
