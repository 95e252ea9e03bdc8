/** Shared pieces of the order write tests (create, update, change facility). */
import { id } from '../helpers/fixtures';
import type { TestService } from '../helpers/service';

export const USERS = [
  'admin@a.test',
  'brand1@a.test',
  'brand2@b.test',
  'viewer@a.test',
  'ops@a.test',
  'charlie1@b.test',
] as const;
export type User = (typeof USERS)[number];

export async function loginAll(svc: TestService) {
  const tokens = {} as Record<User, string>;
  for (const email of USERS) tokens[email] = await svc.login(email);
  return tokens;
}

/** A complete create body: brand 1, retailer 1, Alpha DC (connected in org 1). */
export function createBody(overrides: Record<string, unknown> = {}) {
  return {
    po_number: 'PO-1001',
    picksheet_code: 'PS-1001',
    brand_id: id('b', 1),
    retailer_id: id('r', 1),
    facility_id: id('f', 1),
    items: [
      {
        sku: 'SKU-RED',
        upc: '012345678905',
        quantity: 12,
        case_pack_quantity: 6,
        case_barcode: '10012345678902',
        vendor_pn: 'VP-RED',
        description: 'Red mug',
      },
      { sku: 'SKU-BLUE', upc: '012345678912', quantity: 3 },
    ],
    address_data: {
      ship_to_contact: {
        name: 'Store 12',
        address_line1: '1 Main St',
        address_line2: 'Dock 4',
        city: 'Reno',
        province: 'NV',
        country: 'US',
        zip: '89501',
        facility_code: 'ST12',
        dc_number: 'DC7',
      },
      bill_to_contact: {
        name: 'Retailer One AP',
        address_line1: '9 Ledger Rd',
        address_line2: '',
        city: 'Austin',
        province: 'TX',
        country: 'US',
        zip: '73301',
        facility_code: 'AP1',
        address_number: 'A-77',
        email: 'ap@retailer-one.test',
      },
      mark_for_contact: {
        name: 'Dept 5',
        address_line1: '1 Main St',
        address_line2: '',
        city: 'Reno',
        state: 'NV',
        country: 'US',
        zip: '89501',
        facility_code: 'ST12',
        address_number: 'M-5',
      },
    },
    external_order_id: 'EXT-1001',
    dept_number: '05',
    purchase_order_type: 'SA',
    transportation_method: 'FREIGHT',
    carrier: 'UPSF',
    dates: {
      requested_delivery_date: '2026-12-10',
      earliest_delivery_date: '2026-12-08',
      latest_delivery_date: '2026-12-12',
      earliest_ship_date: '2026-12-01',
      latest_ship_date: '2026-12-04',
      cancel_by_date: '2026-12-15',
      requested_ship_date: '2026-12-02',
      stage_by: '2026-12-01',
    },
    ...overrides,
  };
}

export function writer(svc: TestService, tokens: Record<User, string>) {
  return {
    create: (user: User, payload: unknown, headers: Record<string, string> = {}) =>
      svc.app.inject({
        method: 'POST',
        url: '/api/v1/orders/create',
        headers: { authorization: tokens[user], ...headers },
        payload: payload as Record<string, unknown>,
      }),
    update: (user: User, payload: unknown) =>
      svc.app.inject({
        method: 'PUT',
        url: '/api/v1/orders',
        headers: { authorization: tokens[user] },
        payload: payload as Record<string, unknown>,
      }),
    move: (user: User, payload: unknown) =>
      svc.app.inject({
        method: 'PUT',
        url: '/api/v1/orders/change-facility',
        headers: { authorization: tokens[user] },
        payload: payload as Record<string, unknown>,
      }),
  };
}

export function orderRow(svc: TestService, orderId: string) {
  return svc.ctx.db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
}

export function itemRows(svc: TestService, orderId: string) {
  return svc.ctx.db
    .selectFrom('order_items')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('line_number')
    .execute();
}

export function logRows(svc: TestService, orderId: string | null, actionType?: string) {
  let query = svc.ctx.db.selectFrom('transactions').selectAll().orderBy('created_at');
  if (orderId !== null) query = query.where('order_id', '=', orderId);
  if (actionType) query = query.where('action_type', '=', actionType);
  return query.execute();
}

export async function setStatus(svc: TestService, orderId: string, status: string) {
  await svc.ctx.db
    .updateTable('orders')
    .set({ status: status as never })
    .where('id', '=', orderId)
    .execute();
}
