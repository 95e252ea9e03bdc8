import { ACTION_TYPES } from '../../src/shared/transactions';
import { seededRandom } from '../../src/server/seed/seeded-random';
import { id, ordersBundle } from '../helpers/fixtures';
import { orderId, seedOrder } from '../orders/read-fixtures';

/** Readable transaction ids: `txId(3)`. */
export const txId = (n: number) => `7a000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

type Entry = Record<string, unknown>;

function tx(n: number, fields: Entry): Entry {
  return {
    transaction_id: txId(n),
    execution_status: 'SUCCESS',
    request_method: 'POST',
    request_url: `/api/v1/orders/create`,
    duration_ms: 10 + n,
    ...fields,
  };
}

/**
 * Ten rows spread over tenants (users of ordersBundle):
 * 1-4 and 10 at Alpha/Bravo (org 1); 5 at Charlie for brand 1; 6 at Charlie for brand 2;
 * 7 brand-level (no facility) for brand 1; 8 names nothing; 9 at Alpha without a brand.
 */
export function transactionEntries(): Entry[] {
  return [
    tx(1, {
      action_type: 'CREATE_ORDERS_FROM',
      facility_id: id('f', 1),
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
      order_id: orderId(1),
      correlation_id: 'corr-alpha-001',
      request_payload: { picksheet_code: 'PS-1001', items: [{ sku: 'SKU-A', quantity: 4 }] },
      response_body: { message: 'Order created successfully' },
      response_status: 200,
      created_at: '2026-03-01T00:00:00.000Z',
    }),
    tx(2, {
      action_type: 'SEND_ASN',
      execution_status: 'FAILURE',
      facility_id: id('f', 1),
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
      order_id: orderId(1),
      error_message: 'Timeout contacting Retailer Gateway',
      request_url: 'https://asn.bigbox.example/v2/asn',
      response_status: 504,
      created_at: '2026-03-01T23:59:59.999Z',
    }),
    tx(3, {
      action_type: 'SEND_INVOICE',
      execution_status: 'RETRY',
      facility_id: id('f', 1),
      brand_id: id('b', 2),
      retailer_id: id('r', 2),
      error_message: 'HTTP 502 Bad Gateway',
      request_url: 'https://edi.northwind.example/invoices?batch=77',
      response_status: 502,
      created_at: '2026-03-02T12:00:00Z',
    }),
    tx(4, {
      action_type: 'POST_ORDER_TO',
      execution_status: 'PENDING',
      facility_id: id('f', 2),
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
      order_id: orderId(2),
      created_at: '2026-03-03T08:00:00.000Z',
    }),
    tx(5, {
      action_type: 'SEND_PO_ACK',
      execution_status: 'SKIP',
      facility_id: id('f', 3),
      brand_id: id('b', 1),
      retailer_id: id('r', 3),
      created_at: '2026-03-04T09:00:00.000Z',
    }),
    tx(6, {
      action_type: 'SEND_TRACKING',
      execution_status: 'FAILURE',
      facility_id: id('f', 3),
      brand_id: id('b', 2),
      retailer_id: id('r', 2),
      order_id: orderId(3),
      correlation_id: 'corr-charlie-xyzzy',
      error_message: 'Carrier rejected XYZZY label',
      request_url: 'https://track.charlie.example/xyzzy',
      created_at: '2026-03-05T09:00:00.000Z',
    }),
    tx(7, {
      action_type: 'SEND_INVENTORY_ADVICE',
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
      correlation_id: 'snapshot-brandwide-1',
      request_method: 'PUT',
      request_url: 'outbox/r1/846-0001.edi',
      created_at: '2026-02-28T10:00:00.000Z',
    }),
    tx(8, {
      action_type: 'CREATE_ORDERS_FROM',
      execution_status: 'FAILURE',
      error_message: 'Nobody owns this refused write',
      created_at: '2026-03-06T10:00:00.000Z',
    }),
    tx(9, {
      action_type: 'INGEST_ORDER_PUT',
      execution_status: 'FAILURE',
      facility_id: id('f', 1),
      error_message: 'Order not found',
      request_method: 'PUT',
      request_url: '/api/v1/orders',
      created_at: '2026-03-02T06:00:00.000Z',
    }),
    tx(10, {
      action_type: 'SEND_ASN',
      facility_id: id('f', 1),
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
      correlation_id: 'CORR-Mixed-Case-55',
      request_url: 'https://asn.bigbox.example/v2/asn',
      created_at: '2026-02-27T10:00:00.000Z',
      updated_at: '2026-04-01T00:00:00.000Z',
    }),
  ];
}

/** Orders 1 (PO-1001) and 2 (PO-1002) at Alpha for brand 1; order 3 (PO-1003) there for brand 2. */
export function transactionsBundle(extra: Entry[] = []) {
  const bundle = ordersBundle();
  return {
    ...bundle,
    orders: [
      seedOrder(1),
      seedOrder(2),
      seedOrder(3, { brand_id: id('b', 2), retailer_id: id('r', 2) }),
    ],
    transactions: [...transactionEntries(), ...extra],
  };
}

/** `count` successful rows at Delta DC (ops@a.test only), one a minute from `start`. */
export function bulkAtDelta(count: number, start = Date.parse('2026-01-10T00:00:00.000Z')) {
  return Array.from({ length: count }, (_, i) =>
    tx(1000 + i, {
      action_type: 'SEND_ASN',
      facility_id: id('f', 4),
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
      created_at: new Date(start + i * 60_000).toISOString(),
    }),
  );
}

/** Where yearOfLog's rows are: facility (null: brand-level), brand, and the retailers there. */
const YEAR_PLACES: [string | null, string, string[]][] = [
  [id('f', 1), id('b', 1), [id('r', 1), id('r', 3)]],
  [id('f', 1), id('b', 2), [id('r', 2)]],
  [id('f', 2), id('b', 1), [id('r', 1), id('r', 3)]],
  [id('f', 3), id('b', 2), [id('r', 2)]],
  [id('f', 4), id('b', 1), [id('r', 1)]],
  [null, id('b', 1), [id('r', 1), id('r', 3)]],
  [null, id('b', 2), [id('r', 2)]],
];
const YEAR_STATUSES = ['SUCCESS', 'SUCCESS', 'SUCCESS', 'FAILURE', 'RETRY', 'PENDING', 'SKIP'];

/**
 * `count` rows spread evenly over the year to 2026-11-20, as the transactions bench's log is
 * (facilities, brand-level rows, several retailers, actions and statuses, errors on failures):
 * enough count rows per day for planner statistics to matter.
 */
export function yearOfLog(count: number): Entry[] {
  const random = seededRandom(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const end = Date.parse('2026-11-20T00:00:00.000Z');
  const span = 365 * 86_400_000;
  return Array.from({ length: count }, (_, i) => {
    const [facility, brand, retailers] = pick(YEAR_PLACES);
    const status = pick(YEAR_STATUSES);
    const failed = status === 'FAILURE' || status === 'RETRY';
    return tx(5000 + i, {
      action_type: facility === null ? 'SEND_INVENTORY_ADVICE' : pick(ACTION_TYPES),
      execution_status: status,
      facility_id: facility,
      brand_id: brand,
      retailer_id: pick(retailers),
      error_message: failed ? `Partner error ${i % 4}` : null,
      created_at: new Date(end - span + (i / count) * span).toISOString(),
    });
  });
}
