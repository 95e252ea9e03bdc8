/** Shared pieces of the fulfilment tests: a bundle with orders to work on, and an API client. */
import { id } from '../helpers/fixtures';
import { ordersBundle } from '../helpers/fixtures';
import { TEST_PASSWORD, type TestService } from '../helpers/service';
import { signedInService } from '../helpers/signed-in';
import type { Engine } from '../../src/server/db/engine';

export const PREFIX_B1 = '0614141';

/** Order ids of the bundle below (kind 'o' numbers above the fixtures' organisations). */
export const ORDERS = {
  /** Brand 1 at facility 1, FREIGHT, Open: 12 SKU-RED (case of 6) and 3 SKU-BLUE. */
  freight: id('o', 101),
  /** Brand 1 at facility 1, PARCEL, Open: 2 SKU-RED. */
  parcel: id('o', 102),
  /** Brand 2 at facility 1 (brand 2 has no GS1 prefix), Open. */
  noPrefix: id('o', 103),
  /** Brand 1 at facility 1, Shipped. */
  shipped: id('o', 104),
  /** Brand 1 at facility 3 (organisation 2), Open. */
  charlie: id('o', 105),
} as const;

/** A complete ship-to: Ship refuses an order without one. */
export const SHIP_TO = {
  name: 'Retailer DC 12',
  address_line1: '1 Dock Rd',
  city: 'Reno',
  province: 'NV',
  zip: '89502',
};

function order(orderId: string, overrides: Record<string, unknown> = {}) {
  return {
    id: orderId,
    status: 'Open',
    picksheet_code: `PS-${orderId.slice(-3)}`,
    po_number: `PO-${orderId.slice(-3)}`,
    brand_id: id('b', 1),
    retailer_id: id('r', 1),
    facility_id: id('f', 1),
    transportation_method: 'FREIGHT',
    created_at: '2026-11-01T10:00:00.000Z',
    address_data: { ship_to_contact: SHIP_TO },
    items: [
      {
        sku: 'SKU-RED',
        upc: '012345678905',
        quantity: 12,
        case_pack_quantity: 6,
        case_barcode: '10012345678902',
      },
      { sku: 'SKU-BLUE', upc: '012345678912', quantity: 3 },
    ],
    ...overrides,
  };
}

/**
 * The orders fixtures (test/helpers/fixtures.ts) plus: brand 1 has GS1 prefix 0614141, brand 2
 * none; packer@a.test, brand-less at facility 1 with no admin grant (any user who sees an order
 * packs it); the orders above.
 */
export function fulfilmentBundle() {
  const bundle = ordersBundle();
  return {
    ...bundle,
    brands: bundle.brands.map((b) =>
      b.brand_id === id('b', 1) ? { ...b, gs1_company_prefix: PREFIX_B1 } : b,
    ),
    users: [
      ...bundle.users,
      {
        email: 'packer@a.test',
        password: TEST_PASSWORD,
        brand_id: null,
        facility_ids: [id('f', 1)],
        admin: [],
      },
    ],
    orders: [
      order(ORDERS.freight),
      order(ORDERS.parcel, {
        transportation_method: 'PARCEL',
        items: [{ sku: 'SKU-RED', upc: '012345678905', quantity: 2 }],
      }),
      order(ORDERS.noPrefix, { brand_id: id('b', 2), retailer_id: id('r', 2) }),
      order(ORDERS.shipped, { status: 'Shipped', shipped_at: '2026-11-02T10:00:00.000Z' }),
      order(ORDERS.charlie, { facility_id: id('f', 3), retailer_id: id('r', 3) }),
    ],
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls the fulfilment routes of one order as one user. */
export function client(svc: TestService, token: string) {
  return clientOf(
    () => svc,
    () => token,
  );
}

/** A client that takes the service and token when it calls (they may start after it is made). */
function clientOf(svcOf: () => TestService, tokenOf: () => string) {
  const call = (method: Method, url: string, payload?: unknown) =>
    svcOf().app.inject({
      method,
      url,
      headers: { authorization: tokenOf() },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const at = (orderId: string, path: string) => `/api/v1/orders/${orderId}/${path}`;
  return {
    call,
    view: (orderId: string) => call('GET', at(orderId, 'fulfilment')),
    step: (orderId: string, path: string, payload?: unknown) =>
      call('POST', at(orderId, path), payload),
    pack: (orderId: string, payload: unknown) => call('POST', at(orderId, 'cartons'), payload),
    scan: (orderId: string, code: string, extra: Record<string, unknown> = {}) =>
      call('POST', at(orderId, 'scan'), { code, ...extra }),
    pallet: (orderId: string, payload: unknown = {}) =>
      call('POST', at(orderId, 'pallets'), payload),
    move: (orderId: string, cartonId: string, palletId: string | null) =>
      call('PUT', at(orderId, `cartons/${cartonId}/pallet`), { pallet_id: palletId }),
    unpack: (orderId: string, cartonId: string) =>
      call('DELETE', at(orderId, `cartons/${cartonId}`)),
  };
}
export type Client = ReturnType<typeof client>;

/**
 * The fulfilment bundle's service for a file's tests, with `users` signed in; `as(user)` is a
 * client calling as that user.
 */
export function fulfilmentService<U extends string>(users: readonly U[], engine?: Engine) {
  const session = signedInService(users, () => ({ seed: fulfilmentBundle(), engine }));
  return {
    get svc() {
      return session.svc;
    },
    as: (user: U) =>
      clientOf(
        () => session.svc,
        () => session.tokens[user],
      ),
  };
}

/** The data of a success envelope. */
export const dataOf = <T = Record<string, unknown>>(response: { json(): unknown }) =>
  (response.json() as { data: T }).data;
