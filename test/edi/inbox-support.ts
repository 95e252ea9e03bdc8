/** Shared pieces of the EDI inbox tests: a bundle with same-brand users who must see nothing. */
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { TEST_PASSWORD, type TestService } from '../helpers/service';
import { inboundBundle } from './inbound-support';

/**
 * The inbound bundle (connection 1: org 1, brand 1, retailer 1) with `order_documents` replaced,
 * plus two users of brand 1 who may not see connection 1's interchanges:
 * - org2@b.test: admin for brand 1 at facility 3 (org 2) only;
 * - near@a.test: brand 1, a plain grant at facility 1 (the connection's facility) and an admin
 *   grant at facility 3 (org 2).
 */
export function inboxBundle(url: string, orderDocuments: Record<string, unknown>) {
  const bundle = inboundBundle(url, orderDocuments);
  return {
    ...bundle,
    users: [
      ...bundle.users,
      {
        email: 'org2@b.test',
        password: TEST_PASSWORD,
        brand_id: id('b', 1),
        facility_ids: [id('f', 3)],
        admin: [{ brand_id: id('b', 1), facility_id: id('f', 3) }],
      },
      {
        email: 'near@a.test',
        password: TEST_PASSWORD,
        brand_id: id('b', 1),
        facility_ids: [id('f', 1), id('f', 3)],
        admin: [{ brand_id: id('b', 1), facility_id: id('f', 3) }],
      },
    ],
  };
}

export const inbox = (svc: TestService, token: string, query = '') =>
  svc.app.inject({
    method: 'GET',
    url: `/api/v1/edi/interchanges${query}`,
    headers: { authorization: token },
  });

export const interchange = (svc: TestService, token: string, interchangeId: string, tail = '') =>
  svc.app.inject({
    method: 'GET',
    url: `/api/v1/edi/interchanges/${interchangeId}${tail}`,
    headers: { authorization: token },
  });

export const reprocess = (svc: TestService, token: string, interchangeId: string) =>
  svc.app.inject({
    method: 'POST',
    url: `/api/v1/edi/interchanges/${interchangeId}/reprocess`,
    headers: { authorization: token },
  });

/** One interchange, its raw text and its reprocessing all answer 404 to `token`, as an unknown one. */
export async function expectInterchangeHidden(
  svc: TestService,
  token: string,
  interchangeId: string,
) {
  for (const tail of ['', '/raw']) {
    expectError(
      await interchange(svc, token, interchangeId, tail),
      404,
      'NOT_FOUND',
      'Interchange not found',
    );
  }
  expectError(
    await reprocess(svc, token, interchangeId),
    404,
    'NOT_FOUND',
    'Interchange not found',
  );
}

/** Connection 1's order_documents settings, changed the way a clerk's fix would. */
export async function setOrderDocuments(svc: TestService, settings: Record<string, unknown>) {
  await svc.ctx.db
    .updateTable('connections')
    .set({ order_documents_json: JSON.stringify(settings) })
    .where('id', '=', id('c', 1))
    .execute();
}
