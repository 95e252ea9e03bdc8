/**
 * The generated transaction log of `npm run bench -- transactions` (bench/transactions.ts), the
 * same rows for either engine: 90 % the demo user's (3 facilities, brand-wide rows of Summit),
 * 10 % another tenant's, and ORDERS orders for the po_number filter.
 */
import { seededRandom } from '../src/server/seed/seeded-random';
import { ACTION_TYPES } from '../src/shared/transactions';

export const ROWS = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);

export const uuid = (prefix: string, n: number) =>
  `${prefix}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** The demo's facilities and brands (resources/demo-workspace.json) and their links. */
export const F = [1, 2, 3].map((n) => uuid('0f', n));
export const B = [1, 2, 3].map((n) => uuid('0b', n));
export const R = [1, 2, 3, 4].map((n) => uuid('0e', n));
/** Facility → brands working there; the last pair is another tenant's (the demo user sees none of it). */
export const PLACES: [string | null, string, string[]][] = [
  [F[0]!, B[0]!, [R[0]!, R[3]!]],
  [F[0]!, B[1]!, [R[1]!]],
  [F[1]!, B[0]!, [R[0]!, R[3]!]],
  [F[2]!, B[0]!, [R[2]!]],
  [F[2]!, B[2]!, [R[2]!]],
  [null, B[0]!, [R[0]!, R[3]!]],
  [uuid('0f', 900), uuid('0b', 900), [uuid('0e', 900)]],
];
export const ORDERS = 50_000;
export const orderId = (n: number) => uuid('0d', 100_000 + n);
const SPAN_MS = 365 * 86_400_000;
const END = Date.parse('2026-11-20T00:00:00.000Z');
const ERRORS = [
  'timeout after 30000 ms waiting for partner',
  '502: Bad Gateway',
  '503: Service Unavailable',
  '401: Unauthorized (token expired)',
  'ECONNRESET: connection reset by peer',
  'EDI 997 rejected: segment N1 missing',
  'ASN rejected: carton count mismatch',
  'Invoice rejected: unknown PO number',
];

/** An order of the generated log: its values in the column order of ORDER_COLUMNS. */
export const ORDER_COLUMNS = [
  'id',
  'brand_id',
  'retailer_id',
  'facility_id',
  'picksheet_code',
  'po_number',
  'created_at',
  'updated_at',
] as const;

/** The generated orders (no randomness: the same every run), status 'Shipped'. */
export function* generatedOrders(): Generator<string[]> {
  for (let n = 0; n < ORDERS; n++) {
    const [facility, brand, retailers] = PLACES[n % PLACES.length]!;
    const at = new Date(END - SPAN_MS + (n / ORDERS) * SPAN_MS).toISOString();
    yield [
      orderId(n),
      brand,
      retailers[0]!,
      facility ?? F[0]!,
      `PS-${n}`,
      `PO${4_600_000 + n}`,
      at,
      at,
    ];
  }
}

/** The columns of a generated log row, in the order generatedTransactions yields them. */
export const LOG_COLUMNS = [
  'transaction_id',
  'action_type',
  'action_type_label',
  'brand_id',
  'retailer_id',
  'facility_id',
  'order_id',
  'correlation_id',
  'duration_ms',
  'error_message',
  'execution_status',
  'request_url',
  'request_payload',
  'response_body',
  'response_status',
  'created_at',
  'updated_at',
] as const;

/**
 * ROWS log rows (request_method 'POST', no carton or load), in LOG_COLUMNS order. The same
 * seeded draws every run; only the transaction ids are random.
 */
export function* generatedTransactions(): Generator<(string | number | null)[]> {
  const random = seededRandom(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  for (let i = 0; i < ROWS; i++) {
    const place = random() < 0.9 ? PLACES[Math.floor(random() * 6)]! : PLACES[6]!;
    const [facility, brand, retailers] = place;
    // One row in 50,000 is a failure carrying the rare word.
    const rare = i % 50_000 === 7;
    const roll = random();
    const status = rare
      ? 'FAILURE'
      : roll < 0.8
        ? 'SUCCESS'
        : roll < 0.88
          ? 'FAILURE'
          : roll < 0.93
            ? 'RETRY'
            : roll < 0.97
              ? 'PENDING'
              : 'SKIP';
    const action = facility === null ? 'SEND_INVENTORY_ADVICE' : pick(ACTION_TYPES);
    const failed = status === 'FAILURE' || status === 'RETRY';
    const error = failed ? (rare ? 'Partner says QUOKKA' : pick(ERRORS)) : null;
    const order = action === 'SEND_INVENTORY_ADVICE' ? null : Math.floor(random() * ORDERS);
    const at = new Date(END - SPAN_MS + (i / ROWS) * SPAN_MS).toISOString();
    const retailer = pick(retailers);
    yield [
      crypto.randomUUID(),
      action,
      action.charAt(0) + action.slice(1).toLowerCase().replaceAll('_', ' '),
      brand,
      retailer,
      facility,
      order === null ? null : orderId(order),
      random() < 0.5 ? `corr-${Math.floor(random() * 2 ** 40).toString(16)}` : null,
      Math.floor(random() * 900),
      error,
      status,
      `https://edi.partner${retailer.slice(-1)}.example/v1/${action.toLowerCase()}/${i}`,
      `{"attempt":1,"bytes":${Math.floor(random() * 20_000)}}`,
      failed ? `{"text":"${error}"}` : '{"text":"ok"}',
      failed ? 502 : 200,
      at,
      at,
    ];
  }
}
