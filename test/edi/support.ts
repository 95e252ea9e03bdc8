/** Shared pieces of the order-document tests: a bundle whose retailer 1 takes ASNs, and helpers. */
import { id } from '../helpers/fixtures';
import { TEST_PASSWORD, type TestService } from '../helpers/service';
import { client, fulfilmentBundle, ORDERS } from '../fulfilment/support';

export { ORDERS };

export const FAST_POLICY = {
  attemptTimeoutMs: 300,
  totalBudgetMs: 1500,
  maxAttempts: 2,
  baseBackoffMs: 10,
  maxBackoffMs: 50,
};

export const ASN_CONNECTION = id('c', 1);

/**
 * The fulfilment bundle where connection 1 (brand 1, retailer 1, organisation 1; EDI) sends
 * 856s over http to `url` (or, with `kind: 'DIRECT_API'`, shipment confirmations), plus
 * bravo@a.test: brand 1 at facility 2 only (the orders are at facility 1).
 */
export function asnBundle(
  url: string,
  options: { kind?: 'EDI_846' | 'DIRECT_API'; send?: string[]; ack_hours?: number } = {},
) {
  const bundle = fulfilmentBundle();
  return {
    ...bundle,
    connections: bundle.connections.map((c) =>
      c.id === ASN_CONNECTION
        ? {
            ...c,
            kind: options.kind ?? 'EDI_846',
            transport: { type: 'http', url },
            order_documents: {
              send: options.send ?? ['856'],
              ...(options.ack_hours === undefined ? {} : { ack_hours: options.ack_hours }),
            },
          }
        : c,
    ),
    users: [
      ...bundle.users,
      {
        email: 'bravo@a.test',
        password: TEST_PASSWORD,
        brand_id: id('b', 1),
        facility_ids: [id('f', 2)],
        admin: [],
      },
    ],
  };
}

/** Takes the parcel order (2 SKU-RED) from Open to Loaded: one carton. */
export async function loadParcelOrder(svc: TestService, token: string) {
  const api = client(svc, token);
  const order = ORDERS.parcel;
  for (const step of ['start-picking']) await expectOk(api.step(order, step));
  await expectOk(api.pack(order, { skus: [{ sku: 'SKU-RED', quantity: 2 }] }));
  for (const step of ['complete-packing', 'stage', 'load']) await expectOk(api.step(order, step));
  return api;
}

/** Takes the freight order (12 SKU-RED, 3 SKU-BLUE) to Loaded: two cartons on two pallets, a BOL. */
export async function loadFreightOrder(svc: TestService, token: string) {
  const api = client(svc, token);
  const order = ORDERS.freight;
  await expectOk(api.step(order, 'start-picking'));
  const a = await expectOk(api.pack(order, { skus: [{ sku: 'SKU-RED', quantity: 12 }] }));
  const b = await expectOk(api.pack(order, { skus: [{ sku: 'SKU-BLUE', quantity: 3 }] }));
  await expectOk(api.step(order, 'complete-packing'));
  const cartonOf = (r: { json(): unknown }) =>
    (r.json() as { data: { carton: { id: string } } }).data.carton.id;
  await expectOk(api.pallet(order, { carton_ids: [cartonOf(a)] }));
  await expectOk(api.pallet(order, { carton_ids: [cartonOf(b)] }));
  await expectOk(api.step(order, 'stage'));
  await expectOk(api.step(order, 'load'));
  await svc.ctx.db
    .updateTable('orders')
    .set({ bill_of_lading_number: 'BOL-77', carrier: 'Old Dominion', carrier_alpha_code: 'ODFL' })
    .where('id', '=', order)
    .execute();
  return api;
}

async function expectOk<T extends { statusCode: number; body: string }>(response: Promise<T>) {
  const r = await response;
  if (r.statusCode >= 300) throw new Error(`step failed: ${r.statusCode} ${r.body}`);
  return r;
}

/** Polls until `check` holds. */
export async function until(check: () => Promise<boolean> | boolean, what: string) {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const documentRows = (svc: TestService, orderId: string) =>
  svc.ctx.db
    .selectFrom('order_documents')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('created_at')
    .execute();

export const orderRow = (svc: TestService, orderId: string) =>
  svc.ctx.db
    .selectFrom('orders')
    .select(['status', 'shipped_at', 'asn_sent_at'])
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();

export const logRows = (svc: TestService, orderId: string, actionType: string) =>
  svc.ctx.db
    .selectFrom('transactions')
    .select(['action_type', 'execution_status', 'correlation_id', 'error_message', 'request_url'])
    .where('order_id', '=', orderId)
    .where('action_type', '=', actionType)
    .orderBy('created_at')
    .execute();
