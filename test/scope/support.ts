/**
 * What the scope tests share: the users whose grants sit just outside an order's scope (another
 * facility of the organisation, another organisation, another brand at the order's facility) and
 * a request as one of them.
 */
import type { LightMyRequestResponse } from 'fastify';
import { id } from '../helpers/fixtures';
import { TEST_PASSWORD, type TestService } from '../helpers/service';

/** Brand 1, an admin at facility 4 (Delta, organisation 1, where brand 1 works) only. */
export const SAME_BRAND_OTHER_FACILITY = 'delta1@a.test';
/** Brand 1, an admin at facility 3 (Charlie, organisation 2) only; in every seed. */
export const SAME_BRAND_OTHER_ORGANISATION = 'charlie1@b.test';
/** Brand 2, an admin for brand 2 at facility 1 (Alpha), where brand 1's orders are. */
export const OTHER_BRAND_SAME_FACILITY = 'alpha2@a.test';
/** Brand-less at facility 1 (Alpha), an admin for brand 2 there (not for brand 1). */
export const OTHER_BRAND_ADMIN_BRANDLESS = 'alpha-admin2@a.test';
/** The users just outside an order of brand 1 at Alpha, each an admin where it is. */
export const ORDER_OUTSIDERS = [
  SAME_BRAND_OTHER_FACILITY,
  SAME_BRAND_OTHER_ORGANISATION,
  OTHER_BRAND_SAME_FACILITY,
] as const;

/**
 * A seed user at `facilityId` only, an admin there for `adminBrandId`, with `brandId`'s
 * credentials (the admin brand unless said; null: brand-less).
 */
export const adminAt = (
  email: string,
  facilityId: string,
  adminBrandId: string,
  brandId: string | null = adminBrandId,
) => ({
  email,
  password: TEST_PASSWORD,
  brand_id: brandId,
  facility_ids: [facilityId],
  admin: [{ brand_id: adminBrandId, facility_id: facilityId }],
});

/** `base` with the two outsiders the base seeds lack: brand 1's admin at Delta, brand 2's at Alpha. */
export function withOutsiders<B extends { users: readonly object[] }>(base: B) {
  return {
    ...base,
    users: [
      ...base.users,
      adminAt(SAME_BRAND_OTHER_FACILITY, id('f', 4), id('b', 1)),
      adminAt(OTHER_BRAND_SAME_FACILITY, id('f', 1), id('b', 2)),
    ],
  };
}

/** Brand 2's admins at Alpha: one with brand 2's credentials, one brand-less. */
export const brandTwoAdminsAtAlpha = () => [
  adminAt(OTHER_BRAND_SAME_FACILITY, id('f', 1), id('b', 2)),
  adminAt(OTHER_BRAND_ADMIN_BRANDLESS, id('f', 1), id('b', 2), null),
];

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A request to the service as `user`, with the headers `headersOf` gives it (its token). */
export function callAs<U extends string>(
  svc: () => TestService,
  headersOf: (user: U) => { authorization?: string },
) {
  return (
    user: U,
    method: Method,
    url: string,
    payload?: object,
  ): Promise<LightMyRequestResponse> =>
    svc().app.inject({ method, url, headers: headersOf(user), ...(payload ? { payload } : {}) });
}

/** `callAs` for a file that signs its users in itself, into `tokens`. */
export const callWithTokens = (svc: () => TestService, tokens: Record<string, string>) =>
  callAs(svc, (user: string) => ({ authorization: tokens[user]! }));
