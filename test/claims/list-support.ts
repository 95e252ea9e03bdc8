/** Shared pieces of the chargebacks and POS list tests: the file's service, a GET, a broken store. */
import { sql } from 'kysely';
import { signedInService, type SignedInService } from '../helpers/signed-in';
import {
  CLAIM_USERS,
  claimsBundle,
  claimsClock,
  startClaimsService,
  type ClaimUser,
} from './fixtures';

/** One claims service for the file's tests, its users signed in: started before them, closed after. */
export const claimsServiceForFile = (): SignedInService<ClaimUser> =>
  signedInService(CLAIM_USERS, () => ({ seed: claimsBundle(), clock: claimsClock().clock }));

/** GET of the list at `path` as a user (null: without a token), the query string when given. */
export const listGetter =
  (claims: SignedInService<ClaimUser>, path: string) =>
  (user: ClaimUser | null, query = '') =>
    claims.get(user, `${path}${query ? `?${query}` : ''}`);

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
